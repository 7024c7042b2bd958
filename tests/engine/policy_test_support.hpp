#pragma once
// Hand-built observations for policy unit tests: no engine involved.
#include <vector>

#include "model/observation.hpp"

namespace spotsim::testing {

struct ObservationBuilder {
  JobSpec job;
  std::vector<ZoneView> zones;
  std::vector<Millis> preemptions;
  Observation obs;

  ObservationBuilder() {
    job.work = 48 * kMillisPerHour;
    job.startup = 5 * kMillisPerMinute;
    job.restore = kMillisPerMinute;
    job.checkpoint_write = kMillisPerMinute;
    zones.push_back(ZoneView{true, 1.0, 3.0, 10 * kMillisPerHour, 1.0, 30000, nullptr});
  }
  Observation& build() {
    obs.job = &job;
    obs.zones = zones;
    obs.recent_preemptions = preemptions;
    obs.preemptions = static_cast<int>(preemptions.size());
    return obs;
  }
};

// The Can't Be Late setting (Wu et al., NSDI'24): 48 h of work, lossless progress, changeover d = start-up =
// 12 min, no restore.
inline ObservationBuilder cant_be_late(Millis deadline) {
  ObservationBuilder b;
  b.job.work = 48 * kMillisPerHour;
  b.job.deadline = deadline;
  b.job.startup = 12 * kMillisPerMinute;
  b.job.restore = 0;
  b.obs.lossless = true;
  return b;
}

}  // namespace spotsim::testing

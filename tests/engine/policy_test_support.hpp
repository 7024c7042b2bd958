#pragma once
// Hand-built observations for policy unit tests: no engine involved.
#include <vector>

#include "sim/observation.hpp"

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

}  // namespace spotsim::testing

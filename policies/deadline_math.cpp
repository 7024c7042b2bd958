#include "policies/deadline_math.hpp"

#include <algorithm>

namespace spotsim {

Millis changeover(const Observation& obs) {
  const bool needs_restore = !obs.lossless && obs.committed > 0;
  return obs.job->startup + (needs_restore ? obs.job->restore : 0);
}

Millis on_demand_finish_time(const Observation& obs) {
  const JobSpec& job = *obs.job;
  if (obs.purchase == Purchase::kOnDemand) {
    const Millis pending = obs.phase == Phase::kStarting    ? job.startup + job.restore
                           : obs.phase == Phase::kRestoring ? job.restore
                           : obs.phase == Phase::kCheckpointing ? job.checkpoint_write
                                                                : 0;
    return pending + obs.remaining_work();
  }
  const Millis restore = obs.lossless ? 0 : job.restore;
  if (obs.lossless) return job.startup + obs.remaining_work();
  // Abandon what is not saved...
  const Millis abandon = job.startup + (obs.committed > 0 ? restore : 0) + (job.work - obs.committed);
  // ...or save it first (only worth it while training on an instance).
  if (obs.phase == Phase::kComputing && obs.progress > obs.committed) {
    const Millis save = job.checkpoint_write + job.startup + restore + obs.remaining_work();
    return std::min(abandon, save);
  }
  return abandon;
}

Millis on_demand_slack(const Observation& obs) {
  if (!obs.has_deadline()) return kNever;
  return obs.time_to_deadline() - on_demand_finish_time(obs);
}

}  // namespace spotsim

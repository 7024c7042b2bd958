#include "policies/deadline_math.hpp"

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
  if (obs.lossless) return job.startup + obs.remaining_work();
  // Worst case: a preemption now loses everything since the last checkpoint. Planning on the best case (saving
  // first) would let unsaved work pile up until a preemption makes the deadline unreachable.
  return job.startup + (obs.committed > 0 ? job.restore : 0) + (job.work - obs.committed);
}

Millis on_demand_slack(const Observation& obs) {
  if (!obs.has_deadline()) return kNever;
  return obs.time_to_deadline() - on_demand_finish_time(obs);
}

Millis time_to_last_safe_moment(const Observation& obs) {
  if (!obs.has_deadline()) return kNever;
  return on_demand_slack(obs) - changeover(obs);
}

}  // namespace spotsim

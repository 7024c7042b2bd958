#pragma once
// Time arithmetic shared by the deadline-aware selection policies (greedy, uniform progress, adaptive,
// zone failover).
#include "sim/observation.hpp"

namespace spotsim {

// The changeover delay d of Wu et al. (NSDI'24): what moving to a new instance costs before training resumes
// (start-up, plus reading the checkpoint unless progress is lossless or nothing has been saved).
Millis changeover(const Observation& obs);

// Wall time from now to finish the job if it moved to on-demand now, in the worst case: the work since the last
// checkpoint is lost (as a preemption at this moment would do), then the changeover, then the remaining work.
// If the job already runs on on-demand: just what is left.
Millis on_demand_finish_time(const Observation& obs);

// Deadline slack if the job moved to on-demand now: time to the deadline minus on_demand_finish_time();
// kNever without a deadline.
Millis on_demand_slack(const Observation& obs);

// Time left before the last safe moment to move to on-demand: the on-demand slack less one more changeover, so
// that a job on spot can still survive a preemption. The shared safety net of the deadline-aware policies:
// commit to on-demand once it is <= 0; kNever without a deadline.
Millis time_to_last_safe_moment(const Observation& obs);

}  // namespace spotsim

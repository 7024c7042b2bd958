#pragma once
// SkyPilot managed jobs' recovery strategies (`job_recovery: FAILOVER` and `EAGER_NEXT_REGION`), as users run
// them today, with a deadline-driven spot -> on-demand fallback. The rule of each is documented with its
// registration (failover_policy.cpp, eager_next_region_policy.cpp) and in docs/policies.md#failover.
//
// Source: SkyPilot, sky/jobs/recovery_strategy.py (FailoverStrategyExecutor, EagerFailoverStrategyExecutor) and
// the managed jobs documentation (docs.skypilot.co, "Managed Jobs", job recovery). SkyPilot's launcher tries the
// candidate locations in its optimizer's order, cheapest first: here, cheapest current spot price, ties in the
// trace's zone order.
#include <memory>

#include "model/policy_interfaces.hpp"

namespace spotsim {

enum class RecoveryStrategy {
  kFailover,         // after a preemption: the same region first, then the others
  kEagerNextRegion,  // after a preemption: the other regions first, then all of them
};

std::unique_ptr<SelectionPolicy> make_skypilot_recovery_policy(RecoveryStrategy strategy);

}  // namespace spotsim

// SkyPilot managed jobs' EAGER_NEXT_REGION recovery, its default (sky/jobs/recovery_strategy.py,
// EagerFailoverStrategyExecutor): after a preemption, relaunch anywhere except the region that just preempted the
// job (a preemption is likely to recur there shortly), cheapest first; if none has spot, anywhere, that region
// included. Same wait and on-demand fallback as `failover`.
#include "policies/policy_registry.hpp"
#include "policies/skypilot_recovery.hpp"

namespace spotsim {

void register_eager_next_region(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "eager-next-region",
      "SkyPilot EAGER_NEXT_REGION: after a preemption retry spot in the other regions first (cheapest first), "
      "then anywhere; wait while none has spot, on-demand in the state's region for good when the deadline "
      "requires",
      "", [](const PolicyParams&) { return make_skypilot_recovery_policy(RecoveryStrategy::kEagerNextRegion); }});
}

}  // namespace spotsim

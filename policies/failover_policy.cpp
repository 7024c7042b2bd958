// SkyPilot managed jobs' FAILOVER recovery (sky/jobs/recovery_strategy.py, FailoverStrategyExecutor): after a
// preemption, relaunch in the region of the last launch first (any of its zones), then anywhere the job is
// allowed, cheapest first. With no spot obtainable anywhere the job waits (SkyPilot retries forever) while the
// deadline allows, then falls back to on-demand for good in the region holding its saved state, so no transfer
// is needed (the shared safety net, docs/policies.md#the-safety-net-every-deadline-aware-policy-shares).
#include "policies/policy_registry.hpp"
#include "policies/skypilot_recovery.hpp"

namespace spotsim {

void register_failover(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "failover",
      "SkyPilot FAILOVER: after a preemption retry spot in the same region, then the other regions (cheapest "
      "first); wait while none has spot, on-demand in the state's region for good when the deadline requires",
      "", [](const PolicyParams&) { return make_skypilot_recovery_policy(RecoveryStrategy::kFailover); }});
}

}  // namespace spotsim

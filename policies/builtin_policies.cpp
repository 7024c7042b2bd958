// The list of policies that ship with spotsim: one line per policy.
#include "policies/plugin/plugin_loader.hpp"
#include "policies/plugin/python_policy_source.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

void register_spot_only(PolicyRegistry&);
void register_on_demand(PolicyRegistry&);
void register_adaptive(PolicyRegistry&);
void register_greedy(PolicyRegistry&);
void register_uniform_progress(PolicyRegistry&);
void register_zone_failover(PolicyRegistry&);
void register_uniform_progress_multi(PolicyRegistry&);
void register_failover(PolicyRegistry&);
void register_eager_next_region(PolicyRegistry&);
void register_cost_aware(PolicyRegistry&);
void register_planned(PolicyRegistry&);
void register_optimal_offline(PolicyRegistry&);
void register_no_checkpoint(PolicyRegistry&);
void register_fixed_checkpoint(PolicyRegistry&);
void register_young_daly_checkpoints(PolicyRegistry&);
void register_continuous_checkpoint(PolicyRegistry&);
void register_hazard_checkpoint(PolicyRegistry&);
void register_optimal_dp_checkpoint(PolicyRegistry&);
void register_schedule_checkpoint(PolicyRegistry&);
void register_node_policies(PolicyRegistry&);

PolicyRegistry builtin_policy_registry() {
  PolicyRegistry registry;
  register_spot_only(registry);
  register_on_demand(registry);
  register_adaptive(registry);
  register_greedy(registry);
  register_uniform_progress(registry);
  register_zone_failover(registry);
  register_uniform_progress_multi(registry);
  register_failover(registry);
  register_eager_next_region(registry);
  register_cost_aware(registry);
  register_planned(registry);
  register_optimal_offline(registry);
  register_no_checkpoint(registry);
  register_fixed_checkpoint(registry);
  register_young_daly_checkpoints(registry);
  register_continuous_checkpoint(registry);
  register_hazard_checkpoint(registry);
  register_optimal_dp_checkpoint(registry);
  register_schedule_checkpoint(registry);
  register_node_policies(registry);
  return registry;
}

}  // namespace spotsim

namespace spotsim {

PolicyRegistry policy_registry() {
  PolicyRegistry registry = builtin_policy_registry();
  add_plugin_policies(registry);
  add_python_policies(registry);  // only inside the Python module's command host
  return registry;
}

}  // namespace spotsim

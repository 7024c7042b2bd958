#pragma once
// The `planned` policy (planned_policy.cpp, docs/policies.md#planned), for the policies that play it: `adaptive`
// in the Can't Be Late mode.
#include <cstddef>
#include <functional>
#include <memory>

#include "model/policy_interfaces.hpp"
#include "policies/policy_params.hpp"

namespace spotsim {

// Makes `planned` policies from their parameters. Every `planned` policy of the process (and every `adaptive` that
// plays one) shares the calibrations read and the plans solved: runs that start alike solve once, whichever
// registry made them.
std::function<std::unique_ptr<SelectionPolicy>(const PolicyParams&)> planned_policy_maker();

// The process's plan cache: plans solved and reused since the process started, and those it keeps now.
struct PlanCacheStatistics {
  std::size_t solved = 0;
  std::size_t reused = 0;
  std::size_t kept = 0;
  double kept_bytes = 0.0;
  std::size_t spell_models = 0;  // sets of spell models kept (per calibration, job size and step)
};
PlanCacheStatistics plan_cache_statistics();
// Drops the plans the process keeps for later runs (a long-lived process that is done with a scenario frees their
// memory); a plan a live policy follows stays with that policy. The counts of solves and reuses go on.
void clear_plan_cache();

}  // namespace spotsim

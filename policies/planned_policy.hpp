#pragma once
// The `planned` policy (planned_policy.cpp, docs/policies.md#planned), for the policies that play it: `adaptive`
// in the Can't Be Late mode.
#include <functional>
#include <memory>

#include "model/policy_interfaces.hpp"
#include "policies/policy_params.hpp"

namespace spotsim {

// Makes `planned` policies from their parameters; the policies of one maker share their calibrations and solved
// plans (runs that start alike solve once).
std::function<std::unique_ptr<SelectionPolicy>(const PolicyParams&)> planned_policy_maker();

}  // namespace spotsim

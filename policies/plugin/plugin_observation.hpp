#pragma once
// The engine's Observation as the plugin ABI's plain-C snapshot (policies/plugin/spotsim_plugin.h).
#include <vector>

#include "model/observation.hpp"
#include "policies/plugin/spotsim_plugin.h"

namespace spotsim {

// `zones` is the caller's buffer, reused from call to call (no allocation once it has grown to the zone count);
// the result points into it and into `obs`, so it is valid while both are.
spotsim_observation plugin_observation(const Observation& obs, std::vector<spotsim_zone_view>& zones);

}  // namespace spotsim

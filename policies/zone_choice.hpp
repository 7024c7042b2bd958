#pragma once
// Zone choices shared by selection policies.
#include "sim/observation.hpp"

namespace spotsim {

// Index of the zone with the lowest current spot price among those where spot can be obtained; -1 if none.
int cheapest_obtainable_spot_zone(const Observation& obs);
// Index of the zone with the lowest on-demand price (ties: the first).
int cheapest_on_demand_zone(const Observation& obs);

}  // namespace spotsim

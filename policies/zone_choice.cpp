#include "policies/zone_choice.hpp"

namespace spotsim {

int cheapest_obtainable_spot_zone(const Observation& obs) {
  int best = -1;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    if (!v.spot_available) continue;
    if (best < 0 || v.spot_price_per_hour < obs.zones[static_cast<std::size_t>(best)].spot_price_per_hour) best = z;
  }
  return best;
}

int cheapest_on_demand_zone(const Observation& obs) {
  int best = 0;
  for (int z = 1; z < static_cast<int>(obs.zones.size()); ++z) {
    if (obs.zones[static_cast<std::size_t>(z)].on_demand_price_per_hour <
        obs.zones[static_cast<std::size_t>(best)].on_demand_price_per_hour) {
      best = z;
    }
  }
  return best;
}

}  // namespace spotsim

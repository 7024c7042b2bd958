#include "policies/node_zone_choice.hpp"

#include <algorithm>
#include <cstddef>
#include <tuple>

namespace spotsim {

namespace {

bool holds_nothing(const NodeObservation& obs) { return obs.spot_held + obs.on_demand_held == 0; }

}  // namespace

int node_zone_for_spot_among_several(const NodeObservation& obs, int spot_wanted, int on_demand,
                                     std::span<const std::uint8_t> allowed) {
  if (obs.running || spot_wanted <= 0) return -1;
  const int need = std::max(1, obs.min_nodes - on_demand);
  const auto here = static_cast<std::size_t>(obs.zone);
  const bool free_choice = holds_nothing(obs) && obs.data_zone < 0;
  const auto fits_here = [&] {
    const long long obtainable = obs.zones[here].spot_obtainable;
    return obs.spot_held + obtainable >= need;
  };
  if (!free_choice && fits_here()) return -1;
  // Larger is better: spot instances given (up to those wanted), then lower spot price, shorter move, lower index
  // (its own zone first when every move is free).
  const auto rank = [&](std::size_t z) {
    const NodeZoneView& v = obs.zones[z];
    return std::make_tuple(std::min(v.spot_obtainable, spot_wanted), -v.spot_price_per_hour, -v.move_time,
                           z == here ? 1 : 0, -static_cast<long long>(z));
  };
  int best = -1;
  for (std::size_t z = 0; z < obs.zones.size(); ++z) {
    const NodeZoneView& v = obs.zones[z];
    const bool reachable = z == here || allowed.empty() || allowed[z] != 0;
    const bool gives_enough = v.spot_obtainable >= need || (z == here && obs.spot_held + v.spot_obtainable >= need);
    if (!reachable || !gives_enough) continue;
    if (best < 0 || rank(z) > rank(static_cast<std::size_t>(best))) best = static_cast<int>(z);
  }
  return best < 0 || best == obs.zone ? -1 : best;
}

int node_zone_for_on_demand_among_several(const NodeObservation& obs) {
  if (obs.running) return -1;
  if (obs.data_zone >= 0) return obs.data_zone == obs.zone ? -1 : obs.data_zone;
  if (!holds_nothing(obs)) return -1;
  std::size_t best = static_cast<std::size_t>(obs.zone);
  for (std::size_t z = 0; z < obs.zones.size(); ++z) {
    if (obs.zones[z].on_demand_price_per_hour < obs.zones[best].on_demand_price_per_hour) best = z;
  }
  return static_cast<int>(best) == obs.zone ? -1 : static_cast<int>(best);
}

}  // namespace spotsim

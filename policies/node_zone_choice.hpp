#pragma once
// Where a multi-node job holds its instances (model/node_policy.hpp, docs/elastic.md#zones): the zone rules the
// built-in node policies share. One zone at a time; a move releases every instance and pays the saved state's
// transfer once a training set forms in the new zone.
#include <cstdint>
#include <span>

#include "model/node_policy.hpp"

namespace spotsim {

// The zone to hold `spot_wanted` spot instances in (NodeRequest::zone; -1 = stay). A job that trains stays (a
// move would throw its training set away). Otherwise, with `on_demand` instances of its own beside them, it needs
// need = max(1, min_nodes - on_demand) spot instances to form a set: it stays while its zone can give them (held
// plus obtainable), and else goes where most of the wanted spot is obtainable (then the cheaper spot, the shorter
// move, the lower index), among the allowed zones that can give `need`. A job that
// holds nothing and has nothing saved (every move free) picks by the same order among all zones, its own first on
// ties. `allowed` (when not empty) says, zone by zone, where the caller lets the job go.
int node_zone_for_spot_among_several(const NodeObservation& obs, int spot_wanted, int on_demand,
                                     std::span<const std::uint8_t> allowed);
inline int node_zone_for_spot(const NodeObservation& obs, int spot_wanted, int on_demand,
                              std::span<const std::uint8_t> allowed = {}) {
  // (Inline: a single-zone job, the common case, pays one test per decision.)
  return obs.zones.size() <= 1 ? -1 : node_zone_for_spot_among_several(obs, spot_wanted, on_demand, allowed);
}

// The zone for instances that are all on-demand: a job that holds nothing and has nothing saved takes the cheapest
// on-demand price (its own zone on ties); a job with saved state that is not training goes back to the state's
// zone (no transfer); otherwise it stays (-1).
int node_zone_for_on_demand_among_several(const NodeObservation& obs);
inline int node_zone_for_on_demand(const NodeObservation& obs) {
  return obs.zones.size() <= 1 ? -1 : node_zone_for_on_demand_among_several(obs);
}

}  // namespace spotsim

#pragma once
// `spotsim trace reshape` (docs/traces.md#reshape): a trace re-priced, re-shaped (instance type, GPU, GPUs per
// instance) or with zones and regions renamed, with what was done appended to its provenance. What a recording cannot
// say is refused unless the user says how to carry it over: a count of 1-GPU instances is not a count of 8-GPU ones,
// and a probe of one GPU type says nothing of another's spot, so a shape change needs an availability rule, and
// prices per instance-hour need a price rule.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/market/spot_market.hpp"

namespace spotsim {

// How a zone's spot availability carries over to a new instance shape.
enum class AvailabilityRule {
  kUnstated,  // refused on any shape change
  kSame,      // ASSUMPTION: the new shape is obtainable, and preempted, exactly as the recorded one was
  kPooled,    // the recorded count regrouped: floor(count x old GPUs / new GPUs); same GPU type, counts only
};

// A price for one zone, or for every zone ("").
struct ZonePrice {
  std::string zone;
  double usd_per_hour = 0.0;
};

struct ReshapeRequest {
  std::optional<std::string> instance_type;
  std::optional<std::string> gpu;
  std::optional<int> gpus_per_instance;
  AvailabilityRule availability = AvailabilityRule::kUnstated;
  bool prices_per_gpu = false;                               // a shape change scales both prices by new GPUs / old GPUs
  std::optional<double> price_scale;                         // every price (spot series included) times this
  std::vector<ZonePrice> on_demand;                          // constant on-demand prices
  std::vector<ZonePrice> spot;                               // constant spot prices (replacing a recorded series)
  std::vector<std::pair<std::string, std::string>> renames;  // OLD=NEW: a zone's name or a region's
  // Non-empty: the reshaped zones are added beside the originals, named zone + suffix (a trace of two shapes).
  std::string append_suffix;
};

// Applies `request` to `market` and appends what it did to the provenance notes; returns that sentence. InputError
// (naming the option and the zone) for anything that cannot be done honestly or does not apply.
std::string reshape_trace(SpotMarket& market, const ReshapeRequest& request);

}  // namespace spotsim

#pragma once
// Writes a SpotMarket as spotsim trace format v2 (v1 when no zone has a region), the inverse of trace_reader
// (round-trips exactly up to millisecond rounding of times).
#include <nlohmann/json_fwd.hpp>

#include "model/market/spot_market.hpp"

namespace spotsim {

nlohmann::json trace_to_json(const SpotMarket& market);
nlohmann::json lifetime_to_json(const LifetimeDistribution& lifetime);

}  // namespace spotsim

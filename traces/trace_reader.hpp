#pragma once
// Reads the spotsim trace format, versions 1 and 2 (docs/trace-format.md), into a SpotMarket.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "model/market/spot_market.hpp"

namespace spotsim {

// The version the writer writes for a market with regions. Version 1 (no regions, no migration) is still read,
// and written for a market whose zones have no region.
inline constexpr int kTraceFormatVersion = 2;

SpotMarket read_trace_file(const std::string& path);
// `file` names the source in error messages.
SpotMarket parse_trace(const nlohmann::json& document, const std::string& file);
LifetimeDistribution parse_lifetime(const nlohmann::json& object, const std::string& file, const std::string& path);

}  // namespace spotsim

#pragma once
// Reads the spotsim trace format v1 (docs/trace-format.md) into a SpotMarket.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/market/spot_market.hpp"

namespace spotsim {

inline constexpr int kTraceFormatVersion = 1;

SpotMarket read_trace_file(const std::string& path);
// `file` names the source in error messages.
SpotMarket parse_trace(const nlohmann::json& document, const std::string& file);
LifetimeDistribution parse_lifetime(const nlohmann::json& object, const std::string& file, const std::string& path);

}  // namespace spotsim

#pragma once
// Trace format v2's geography (docs/trace-format.md#regions-and-migration): each zone's region and continent, and
// the top-level `migration` object (transfer bandwidths and the egress price of every ordered pair of regions).
#include <nlohmann/json_fwd.hpp>

#include "base/json_fields.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

// Reads `migration` (all fields optional, MigrationModel's defaults) from the top level of a v2 trace.
MigrationModel parse_migration(const JsonFields& top);

// Checks what needs every zone at once: zones of one region share one continent, and the egress table prices
// every ordered pair of distinct regions, exactly once, naming only the trace's regions.
void check_trace_geography(const SpotMarket& market, const JsonFields& top);

nlohmann::json migration_to_json(const MigrationModel& migration);

}  // namespace spotsim

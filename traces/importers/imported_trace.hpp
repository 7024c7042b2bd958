#pragma once
// What every importer returns: the market in spotsim's one in-memory form, plus the per-instance lifetimes when
// the source records them (those feed `spotsim trace fit`).
#include <string>
#include <vector>

#include "model/market/empirical_lifetime.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

// One instance's recorded lifetime with what it ran on, so that fits can be grouped by zone or machine type.
struct LabeledLifetime {
  LifetimeRecord record;
  std::string zone;
  std::string machine_type;
};

struct ImportedTrace {
  std::string format;  // the name of the source format (see trace_format_names())
  SpotMarket market;
  std::vector<LabeledLifetime> lifetimes;
  bool records_spot_prices = false;       // false: the spot price came from ImportOptions
  bool records_on_demand_prices = false;  // false: the on-demand price must come from ImportOptions
};

}  // namespace spotsim

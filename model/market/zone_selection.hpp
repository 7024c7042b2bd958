#pragma once
// Restricting a market to some of its regions or zones: "which regions should this job be allowed to use?"
// (simulate --regions / --zones, a sweep's trace entries; docs/simulate.md, docs/experiments.md).
#include <string>
#include <vector>

#include "model/market/spot_market.hpp"

namespace spotsim {

struct ZoneSelection {
  enum class By { kAll, kRegions, kZones };
  By by = By::kAll;
  std::vector<std::string> names;  // regions or zones, as the user listed them

  bool selects_all() const { return by == By::kAll; }
};

// The market with only the selected zones, in the market's own order (so a zone keeps its relative position
// whichever order the names were listed in), and only the egress prices among the remaining regions.
// InputError, prefixed by `what` (e.g. "--regions"), for an empty list, a name listed twice, or a name the
// market does not have (listing the ones it has); a region selection of a trace without regions (v1) too.
SpotMarket select_zones(const SpotMarket& market, const ZoneSelection& selection, const std::string& what);

// "us-central1,us-east4" -> {"us-central1", "us-east4"}; spaces around names are dropped. InputError prefixed by
// `what` for an empty list or an empty name ("a,,b").
std::vector<std::string> split_name_list(const std::string& text, const std::string& what);

}  // namespace spotsim

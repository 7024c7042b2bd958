#include "model/market/zone_selection.hpp"

#include <algorithm>

#include "base/errors.hpp"

namespace spotsim {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

SpotMarket select_zones(const SpotMarket& market, const ZoneSelection& selection, const std::string& what) {
  if (selection.selects_all()) return market;
  const bool by_region = selection.by == ZoneSelection::By::kRegions;
  const std::string kind = by_region ? "region" : "zone";
  if (selection.names.empty()) throw InputError(what + ": expected at least one " + kind);
  std::vector<std::string> known;
  if (by_region) {
    known = market_regions(market);
    if (known.size() == 1 && known.front().empty()) {
      throw InputError(what + ": trace '" + market.name +
                       "' has no regions (a version-1 trace); select zones "
                       "with --zones instead");
    }
  } else {
    for (const Zone& z : market.zones) known.push_back(z.name);
  }
  for (std::size_t i = 0; i < selection.names.size(); ++i) {
    const std::string& name = selection.names[i];
    if (!contains(known, name)) {
      throw InputError(what + ": trace '" + market.name + "' has no " + kind + " '" + name + "'; its " + kind +
                       "s are: " + joined(known));
    }
    if (std::find(selection.names.begin(), selection.names.begin() + static_cast<std::ptrdiff_t>(i), name) !=
        selection.names.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw InputError(what + ": " + kind + " '" + name + "' is listed twice");
    }
  }
  SpotMarket out = market;
  out.zones.clear();
  for (const Zone& z : market.zones) {
    if (contains(selection.names, by_region ? z.region : z.name)) out.zones.push_back(z);
  }
  // Cannot be empty: every name is known and names at least one zone. Kept as a guard for future callers.
  if (out.zones.empty()) throw InputError(what + ": selects no zone of trace '" + market.name + "'");
  const std::vector<std::string> regions = market_regions(out);
  std::erase_if(out.migration.egress,
                [&](const EgressPrice& p) { return !contains(regions, p.from) || !contains(regions, p.to); });
  return out;
}

std::vector<std::string> split_name_list(const std::string& text, const std::string& what) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = name.find_first_not_of(" \t");
    name = first == std::string::npos ? "" : name.substr(first, name.find_last_not_of(" \t") - first + 1);
    if (name.empty())
      throw InputError(what + " '" + text + "': expected a comma-separated list of names, without empty entries");
    names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace spotsim

#include "traces/importers/cloud_geography.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "base/text_lines.hpp"

namespace spotsim {

std::string gcp_region_of_zone(const std::string& zone) {
  const auto dash = zone.rfind('-');
  if (dash == std::string::npos || dash == 0 || dash + 2 != zone.size()) {
    throw InputError("zone '" + zone + "': expected a GCP zone name such as us-central1-a (region-letter)");
  }
  return zone.substr(0, dash);
}

std::string aws_region_of_zone(const std::string& zone) {
  if (zone.size() < 3 || zone.back() < 'a' || zone.back() > 'z' || zone[zone.size() - 2] < '0' ||
      zone[zone.size() - 2] > '9') {
    throw InputError("zone '" + zone + "': expected an AWS zone name such as us-east-1a (region + letter)");
  }
  return zone.substr(0, zone.size() - 1);
}

std::string continent_of_region(const std::string& region) {
  static const std::vector<std::pair<std::string, std::string>> prefixes = {
      {"us-", "north-america"},
      {"northamerica-", "north-america"},
      {"ca-", "north-america"},
      {"mx-", "north-america"},
      {"southamerica-", "south-america"},
      {"sa-", "south-america"},
      {"europe-", "europe"},
      {"eu-", "europe"},
      {"asia-", "asia"},
      {"ap-", "asia"},
      {"australia-", "oceania"},
      {"me-", "middle-east"},
      {"il-", "middle-east"},
      {"africa-", "africa"},
      {"af-", "africa"},
  };
  for (const auto& [prefix, continent] : prefixes) {
    if (region.starts_with(prefix)) return continent;
  }
  throw InputError("region '" + region +
                   "': cannot tell its continent from the name (expected a prefix such as "
                   "us-, europe-, asia-, ap-, eu-)");
}

std::vector<EgressPrice> read_egress_table(const std::string& path) {
  TextLines lines(read_text_file(path), path);
  std::vector<std::string> f;
  if (!lines.next(f) || f != std::vector<std::string>{"from_region", "to_region", "price_usd_per_gb"}) {
    lines.fail("header", "the header from_region,to_region,price_usd_per_gb", f.empty() ? "" : f.front());
  }
  std::vector<EgressPrice> table;
  while (lines.next(f)) {
    if (f.size() != 3) lines.fail("row", "3 fields", std::to_string(f.size()) + " fields");
    table.push_back({f[0], f[1], lines.number(f[2], "price_usd_per_gb", 0.0, 1e3)});
  }
  return table;
}

std::vector<EgressPrice> shipped_egress_prices(const std::string& cloud, const std::vector<std::string>& regions) {
  const std::string path =
      (std::filesystem::path(shipped_trace_directory()) / "catalogue" / "egress" / (cloud + ".csv")).string();
  const std::vector<EgressPrice> table = read_egress_table(path);
  std::vector<EgressPrice> prices;
  for (const std::string& from : regions) {
    for (const std::string& to : regions) {
      if (from == to) continue;
      const auto it =
          std::find_if(table.begin(), table.end(), [&](const EgressPrice& p) { return p.from == from && p.to == to; });
      if (it == table.end()) throw InputError(path + ": no egress price from " + from + " to " + to);
      prices.push_back(*it);
    }
  }
  return prices;
}

void place_zones_by_name(SpotMarket& market, const std::string& cloud, const std::string& what) {
  if (cloud != "aws" && cloud != "gcp") throw InputError(what + ": expected aws or gcp, got '" + cloud + "'");
  for (Zone& zone : market.zones) {
    try {
      zone.region = cloud == "aws" ? aws_region_of_zone(zone.name) : gcp_region_of_zone(zone.name);
      zone.continent = continent_of_region(zone.region);
    } catch (const InputError& e) {
      throw InputError(what + " " + cloud + ": " + e.what());
    }
  }
  market.migration.egress = shipped_egress_prices(cloud, market_regions(market));
}

}  // namespace spotsim

#include "traces/trace_migration.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

namespace spotsim {

namespace {
// Bandwidths above 10 Tbit/s are a unit mistake (the measured tiers are 3.6-9.7 Gbit/s).
constexpr double kMaxGbps = 1e4;
// No cloud charges more than a few dollars per GB moved; a larger value is a unit mistake.
constexpr double kMaxUsdPerGb = 1e3;
}  // namespace

MigrationModel parse_migration(const JsonFields& top) {
  MigrationModel model;
  if (!top.has("migration")) return model;
  const JsonFields m = top.object("migration");
  m.reject_unknown({"same_continent_gbps", "cross_continent_gbps", "egress"});
  model.same_continent_gbps =
      m.optional_number("same_continent_gbps", 1e-9, kMaxGbps).value_or(model.same_continent_gbps);
  model.cross_continent_gbps =
      m.optional_number("cross_continent_gbps", 1e-9, kMaxGbps).value_or(model.cross_continent_gbps);
  if (!m.has("egress")) return model;
  const auto& list = m.array("egress");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonFields e(list[i], m.file(), m.path_of("egress[" + std::to_string(i) + "]"));
    e.reject_unknown({"from", "to", "usd_per_gb"});
    EgressPrice price{e.string("from"), e.string("to"), e.number("usd_per_gb", 0.0, kMaxUsdPerGb)};
    if (price.from == price.to)
      e.fail_value("to", "a region other than 'from' (moving within a region is free)", e.raw("to"));
    model.egress.push_back(std::move(price));
  }
  return model;
}

void check_trace_geography(const SpotMarket& market, const JsonFields& top) {
  std::map<std::string, std::string> continent_of;
  for (std::size_t i = 0; i < market.zones.size(); ++i) {
    const Zone& zone = market.zones[i];
    const auto [it, fresh] = continent_of.emplace(zone.region, zone.continent);
    if (!fresh && it->second != zone.continent) {
      top.fail("zones[" + std::to_string(i) + "].continent", "the continent of the other zones of region '" +
                                                                 zone.region + "' (\"" + it->second + "\"), got \"" +
                                                                 zone.continent + "\"");
    }
  }
  std::set<std::pair<std::string, std::string>> priced;
  const auto& egress = market.migration.egress;
  for (std::size_t i = 0; i < egress.size(); ++i) {
    const std::string path = "migration.egress[" + std::to_string(i) + "]";
    for (const std::string* region : {&egress[i].from, &egress[i].to}) {
      if (!continent_of.contains(*region)) {
        top.fail(path, "regions of the trace's zones, got '" + *region + "'");
      }
    }
    if (!priced.emplace(egress[i].from, egress[i].to).second) {
      top.fail(path, "one price per ordered pair, got a second one for " + egress[i].from + " -> " + egress[i].to);
    }
  }
  for (const auto& [from, ignored_a] : continent_of) {
    for (const auto& [to, ignored_b] : continent_of) {
      if (from == to || priced.contains({from, to})) continue;
      top.fail("migration.egress",
               "a price for every ordered pair of the trace's regions; missing " + from + " -> " + to);
    }
  }
}

nlohmann::json migration_to_json(const MigrationModel& migration) {
  nlohmann::json egress = nlohmann::json::array();
  for (const EgressPrice& price : migration.egress) {
    egress.push_back({{"from", price.from}, {"to", price.to}, {"usd_per_gb", price.usd_per_gb}});
  }
  return {{"same_continent_gbps", migration.same_continent_gbps},
          {"cross_continent_gbps", migration.cross_continent_gbps},
          {"egress", egress}};
}

}  // namespace spotsim

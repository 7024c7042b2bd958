#include "traces/importers/skynomad_aws_importer.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/text_lines.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/directory_files.hpp"
#include "traces/importers/series_building.hpp"

namespace spotsim {

namespace {

constexpr const char* kSuffix = "_v100_1.csv";
constexpr Millis kTick = 195 * kMillisPerSecond;
constexpr double kOnDemandPerHour = 3.06;  // p3.2xlarge in these regions, from the data's README

struct Availability {
  std::vector<std::string> dates;
  std::vector<double> available;
};

Availability read_availability(const std::string& path) {
  TextLines lines(read_text_file(path), path);
  std::vector<std::string> f;
  if (!lines.next(f) || f != std::vector<std::string>{"date", "availability"}) {
    lines.fail("header", "the header date,availability", f.empty() ? "" : f.front());
  }
  Availability out;
  while (lines.next(f)) {
    if (f.size() != 2) lines.fail("row", "2 fields (date,availability)", std::to_string(f.size()) + " fields");
    out.dates.push_back(f[0]);
    out.available.push_back(static_cast<double>(lines.integer(f[1], "availability", 0, 1)));
  }
  if (out.available.empty()) lines.fail("rows", "at least one row", "none");
  return out;
}

}  // namespace

ImportedTrace import_skynomad_aws(const std::string& dir, const ImportOptions& options) {
  const auto paths = files_with_suffix(dir, kSuffix, "the SkyNomad AWS V100 traces (<zone>_v100_1.csv)");
  const std::string prices_path = (std::filesystem::path(dir) / "v100_spot_prices.json").string();
  const nlohmann::json prices_doc = read_json_file(prices_path);
  const JsonFields prices(prices_doc, prices_path, "");
  ImportedTrace out;
  out.format = "skynomad-aws";
  out.records_spot_prices = true;
  out.records_on_demand_prices = true;
  SpotMarket& market = out.market;
  Availability first;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    Availability a = read_availability(paths[i]);
    if (i == 0) first = a;
    if (a.dates != first.dates) {
      throw InputError(paths[i] + ": expected the rows of " + paths.front() +
                       " (same dates: the zones must be "
                       "recorded on one aligned clock)");
    }
    const std::string key = name_before_suffix(paths[i], ".csv");  // "us-east-1a_v100_1"
    keys.push_back(key);
    const auto spot = prices.numbers(key, 0.0, 1e6);
    if (spot.size() != a.available.size()) {
      prices.fail(key, "one price per row of " + paths[i] + " (" + std::to_string(a.available.size()) + ")");
    }
    const std::string name = name_before_suffix(paths[i], kSuffix);
    if (!options.only_zone.empty() && name != options.only_zone) continue;
    Zone zone;
    zone.name = name;
    zone.region = aws_region_of_zone(name);
    zone.continent = continent_of_region(zone.region);
    zone.instance_type = "p3.2xlarge";
    zone.gpu = "V100";
    zone.gpus_per_instance = 1;
    zone.on_demand_price_per_hour =
        options.on_demand_price_per_hour > 0.0 ? options.on_demand_price_per_hour : kOnDemandPerHour;
    zone.spot.notice = options.notice.value_or(kAwsNotice);
    zone.spot.available = series_from_ticks(a.available, kTick);
    zone.spot.price_per_hour = series_from_ticks(spot, kTick);
    market.zones.push_back(std::move(zone));
  }
  prices.reject_unknown(keys);  // a price series without its availability file is a mismatch, not a spare
  if (market.zones.empty()) throw InputError(dir + ": no zone named '" + options.only_zone + "'");
  market.name = "aws-v100-9-zones";
  market.description = "AWS 1xV100 spot (p3.2xlarge) in " + std::to_string(market.zones.size()) + " zones of " +
                       std::to_string(market_regions(market).size()) + " regions, with per-tick spot prices, " +
                       first.dates.front() + " to " + first.dates.back();
  market.span = static_cast<Millis>(first.available.size()) * kTick;
  market.tick = kTick;
  market.migration.egress = shipped_egress_prices("aws", market_regions(market));
  market.provenance.source =
      "SkyNomad artifact (Li et al., NSDI'27, arXiv 2601.06520), github.com/andylizf/skynomad-artifact commit 62b9aaa, "
      "aws-v100-9-zones/";
  market.provenance.date = first.dates.front().substr(0, 10) + " to " + first.dates.back().substr(0, 10);
  market.provenance.license = "Apache-2.0";
  market.provenance.notes =
      "Imported by: spotsim trace convert --from skynomad-aws ../shared/data/preemption/skynomad-multi-region/"
      "aws-v100-9-zones -o traces/library/aws-v100-9-zones.json. Rows are 195 s ticks (recorded gaps drift "
      "194-280 s; rows are aligned across zones). Spot price per tick from v100_spot_prices.json; on-demand "
      "$3.06/h (the data's README). Region = zone without its last letter; egress from "
      "traces/library/catalogue/egress/aws.csv (the artifact's aws_egress_pricing.csv).";
  return out;
}

}  // namespace spotsim

#include "traces/importers/skynomad_gcp_importer.hpp"

#include <algorithm>

#include "sim/errors.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/directory_files.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/json_fields.hpp"

namespace spotsim {

namespace {

constexpr const char* kSuffix = "_h100_16.json";
constexpr double kGpusPerRecordedPrice = 8.0;  // prices are of a3-highgpu-8g; the probed instance has 1 GPU

struct ZoneFile {
  Zone zone;
  Millis tick = 0;
  std::string start_time;
  std::size_t ticks = 0;
};

ZoneFile read_zone_file(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  const JsonFields top(doc, path, "");
  top.reject_unknown({"metadata", "data", "prices"});
  const JsonFields metadata = top.object("metadata");
  const JsonFields price = metadata.object("price_info");
  if (price.string("machine_type") != "a3-highgpu-8g") {
    price.fail_value("machine_type", "\"a3-highgpu-8g\" (its prices are divided by 8 for the 1-GPU instance)",
                     price.raw("machine_type"));
  }
  ZoneFile out;
  out.tick = millis_from_seconds(metadata.number("gap_seconds", 1.0, 86400.0));
  out.start_time = metadata.string("start_time");
  Zone& zone = out.zone;
  zone.name = metadata.string("zone");
  zone.region = gcp_region_of_zone(zone.name);
  if (price.string("region") != zone.region) {
    price.fail_value("region", "the region of zone " + zone.name + " (" + zone.region + ")", price.raw("region"));
  }
  zone.continent = continent_of_region(zone.region);
  zone.instance_type = "a3-highgpu-1g";
  zone.gpu = "H100";
  zone.gpus_per_instance = 1;
  zone.on_demand_price_per_hour = price.number("on_demand_price", 0.0, 1e6) / kGpusPerRecordedPrice;
  const auto& data = top.array("data");
  if (data.empty()) top.fail("data", "at least one tick");
  std::vector<double> available;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (!data[i].is_number_integer() || (data[i] != 0 && data[i] != 1)) {
      top.fail_value("data[" + std::to_string(i) + "]", "0 (available) or 1 (unavailable)", data[i]);
    }
    available.push_back(data[i] == 0 ? 1.0 : 0.0);  // this data set's 1 = unavailable
  }
  out.ticks = available.size();
  const auto prices = top.numbers("prices", 0.0, 1e6);
  if (prices.size() != available.size()) {
    top.fail("prices", "one price per tick of data (" + std::to_string(available.size()) + ")");
  }
  const bool constant = std::all_of(prices.begin(), prices.end(), [&](double p) { return p == prices.front(); });
  std::vector<double> per_gpu(prices.size());
  std::transform(prices.begin(), prices.end(), per_gpu.begin(), [](double p) { return p / kGpusPerRecordedPrice; });
  zone.spot.price_per_hour = constant ? StepSeries::constant(per_gpu.front()) : series_from_ticks(per_gpu, out.tick);
  zone.spot.available = series_from_ticks(available, out.tick);
  return out;
}

}  // namespace

ImportedTrace import_skynomad_gcp(const std::string& dir, const ImportOptions& options) {
  const auto paths = files_with_suffix(dir, kSuffix, "the SkyNomad GCP H100 traces (<zone>_h100_16.json)");
  ImportedTrace out;
  out.format = "skynomad-gcp";
  out.records_spot_prices = true;
  out.records_on_demand_prices = true;
  SpotMarket& market = out.market;
  ZoneFile first;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    ZoneFile z = read_zone_file(paths[i]);
    if (i == 0) first = z;
    // One aligned clock: the simulator moves a job between zones at the same instant of the recording.
    if (z.tick != first.tick || z.start_time != first.start_time || z.ticks != first.ticks) {
      throw InputError(paths[i] + ": expected the clock of " + paths.front() + " (same gap_seconds, start_time and "
                       "number of ticks: the zones must be recorded on one aligned clock)");
    }
    if (!options.only_zone.empty() && z.zone.name != options.only_zone) continue;
    z.zone.spot.notice = options.notice.value_or(kGcpNotice);
    market.zones.push_back(std::move(z.zone));
  }
  if (market.zones.empty()) throw InputError(dir + ": no zone named '" + options.only_zone + "'");
  market.name = "gcp-h100-13-zones";
  market.description = "GCP 1xH100 spot (a3-highgpu-1g) in " + std::to_string(market.zones.size()) + " zones of " +
                       std::to_string(market_regions(market).size()) + " regions, probed every " +
                       std::to_string(first.tick / kMillisPerSecond) + " s from " + first.start_time;
  market.span = static_cast<Millis>(first.ticks) * first.tick;
  market.tick = first.tick;
  market.migration.egress = shipped_egress_prices("gcp", market_regions(market));
  market.provenance.source =
      "SkyNomad artifact (Li et al., NSDI'27, arXiv 2601.06520), github.com/andylizf/skynomad-artifact commit 62b9aaa, "
      "gcp-h100-13-zones/";
  market.provenance.date = first.start_time.substr(0, 10) + " onwards, 14 days; prices from the GCP Billing Catalog";
  market.provenance.license = "Apache-2.0";
  market.provenance.notes =
      "Imported by: spotsim trace convert --from skynomad-gcp ../shared/data/preemption/skynomad-multi-region/"
      "gcp-h100-13-zones -o traces/library/gcp-h100-13-zones.json. The data's 1 = unavailable was inverted. "
      "Spot and on-demand prices are the recorded a3-highgpu-8g prices divided by 8 (one H100). Region = zone "
      "without its last '-x'; egress from traces/library/catalogue/egress/gcp.csv (published inter-region tiers, "
      "see its README). Transfer bandwidths: SkyNomad's measured defaults.";
  return out;
}

}  // namespace spotsim

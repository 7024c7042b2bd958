#include "traces/importers/skynomad_gcp_zone_file.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/json_fields.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/series_building.hpp"

namespace spotsim {

namespace {

constexpr double kGpusPerRecordedPrice = 8.0;  // prices are of a3-highgpu-8g; the probed instance has 1 GPU

}  // namespace

SkyNomadGcpZoneFile read_skynomad_gcp_zone_file(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  const JsonFields top(doc, path, "");
  top.reject_unknown({"metadata", "data", "prices"});
  const JsonFields metadata = top.object("metadata");
  const JsonFields price = metadata.object("price_info");
  if (price.string("machine_type") != "a3-highgpu-8g") {
    price.fail_value("machine_type", "\"a3-highgpu-8g\" (its prices are divided by 8 for the 1-GPU instance)",
                     price.raw("machine_type"));
  }
  SkyNomadGcpZoneFile out;
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

}  // namespace spotsim

#include "traces/importers/cant_be_late_importer.hpp"

#include <nlohmann/json.hpp>

#include "base/json_fields.hpp"
#include "traces/importers/series_building.hpp"

namespace spotsim {

bool looks_like_gcp_zone(const std::string& zone) {
  return zone.size() >= 3 && zone[zone.size() - 2] == '-' && zone.back() >= 'a' && zone.back() <= 'z';
}

ImportedTrace import_cant_be_late(const nlohmann::json& document, const std::string& file,
                                  const ImportOptions& options) {
  const JsonFields top(document, file, "");
  top.reject_unknown({"metadata", "data", "prices"});
  // metadata is open-ended in the published files (start_time, zone, price_info in later releases): only the
  // tick length is required.
  const JsonFields metadata = top.object("metadata");
  const Millis step = millis_from_seconds(metadata.number("gap_seconds", 0.001, 1e7));
  if (step <= 0) metadata.fail("gap_seconds", "a tick of at least 1 ms");
  const auto& data = top.array("data");
  if (data.empty()) top.fail("data", "at least one tick");
  std::vector<double> counts;
  counts.reserve(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto& v = data[i];
    // Counts of instances: whole numbers (booleans are accepted as 0/1, as some converted files use them).
    if (v.is_boolean()) {
      counts.push_back(v.get<bool>() ? 1.0 : 0.0);
      continue;
    }
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 1'000'000) {
      top.fail_value("data[" + std::to_string(i) + "]", "a count of available instances (an integer in [0, 1000000])",
                     v);
    }
    counts.push_back(static_cast<double>(v.get<std::int64_t>()));
  }
  if (static_cast<double>(counts.size()) * static_cast<double>(step) > 1e13) {
    top.fail("data", "a recording shorter than 300 years (gap_seconds x number of ticks)");
  }
  std::string zone_name = options.zone_name;
  if (zone_name.empty()) zone_name = metadata.has("zone") ? metadata.string("zone") : zone_name_from_path(file);
  ImportedTrace out;
  out.format = "cant-be-late";
  Zone zone = zone_from_options(zone_name, options, looks_like_gcp_zone(zone_name) ? kGcpNotice : kAwsNotice);
  zone.spot.available = series_from_ticks(counts, step);
  if (top.has("prices")) {
    const auto prices = top.numbers("prices", 0.0, 1e6);
    if (prices.size() != counts.size()) {
      top.fail("prices", "one price per tick of data (" + std::to_string(counts.size()) + "), got " +
                             std::to_string(prices.size()));
    }
    zone.spot.price_per_hour = series_from_ticks(prices, step);
    out.records_spot_prices = true;
  }
  out.market.name = zone_name;
  out.market.span = static_cast<Millis>(counts.size()) * step;
  out.market.tick = step;
  out.market.zones.push_back(std::move(zone));
  return out;
}

}  // namespace spotsim

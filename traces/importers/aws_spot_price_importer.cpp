#include "traces/importers/aws_spot_price_importer.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/timestamps.hpp"

namespace spotsim {

namespace {

struct PricePoint {
  Millis time;
  double price;
  std::size_t index;  // position in the file, for error messages
};

double spot_price(const JsonFields& entry) {
  const auto& raw = entry.raw("SpotPrice");
  const std::string expected = "a price in USD per hour >= 0 (a string such as \"0.918000\" or a number)";
  if (raw.is_number()) return entry.number("SpotPrice", 0.0, 1e6);
  if (!raw.is_string()) entry.fail_value("SpotPrice", expected, raw);
  const std::string text = raw.get<std::string>();
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value) || value < 0.0 ||
      value > 1e6) {
    entry.fail_value("SpotPrice", expected, raw);
  }
  return value;
}

}  // namespace

ImportedTrace import_aws_spot_prices(const nlohmann::json& document, const std::string& file,
                                     const ImportOptions& options) {
  const JsonFields top(document, file, "");
  top.reject_unknown({"SpotPriceHistory", "NextToken"});
  const auto& history = top.array("SpotPriceHistory");
  if (history.empty()) top.fail("SpotPriceHistory", "at least one price record");
  using Key = std::pair<std::string, std::string>;  // zone, instance type
  std::map<Key, std::vector<PricePoint>> series;
  std::map<Key, std::string> products;
  std::vector<Key> order;
  Millis start = kNever, last = -kNever;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const JsonFields entry(history[i], file, "SpotPriceHistory[" + std::to_string(i) + "]");
    entry.reject_unknown(
        {"AvailabilityZone", "AvailabilityZoneId", "InstanceType", "ProductDescription", "SpotPrice", "Timestamp"});
    const Key key{entry.string("AvailabilityZone"), entry.string("InstanceType")};
    if (key.first.empty()) entry.fail("AvailabilityZone", "a zone name");
    const auto stamp = parse_timestamp(entry.string("Timestamp"));
    if (!stamp)
      entry.fail_value("Timestamp", "an ISO-8601 timestamp such as 2023-03-01T12:00:00+00:00", entry.raw("Timestamp"));
    const std::string product = entry.optional_string("ProductDescription");
    auto [p, fresh] = products.try_emplace(key, product);
    if (fresh) order.push_back(key);
    if (p->second != product) {
      entry.fail_value("ProductDescription",
                       "one product per zone and instance type (\"" + p->second +
                           "\"; query with --product-descriptions to pick one)",
                       entry.raw("ProductDescription"));
    }
    series[key].push_back({*stamp, spot_price(entry), i});
    start = std::min(start, *stamp);
    last = std::max(last, *stamp);
  }
  const Millis span = options.span.value_or(last - start + kMillisPerHour);
  if (span <= last - start)
    throw InputError(file + ": --span must be longer than the price history (" + std::to_string(last - start) + " ms)");

  std::set<std::string> zone_names;
  for (const Key& key : order) zone_names.insert(key.first);
  const bool one_type_per_zone = zone_names.size() == order.size();
  ImportedTrace out;
  out.format = "aws-spot-prices";
  out.records_spot_prices = true;
  for (const Key& key : order) {
    auto& points = series[key];
    std::stable_sort(points.begin(), points.end(),
                     [](const PricePoint& a, const PricePoint& b) { return a.time < b.time; });
    std::vector<std::pair<Millis, double>> changes;
    for (std::size_t j = 0; j < points.size(); ++j) {
      if (j > 0 && points[j].time == points[j - 1].time && points[j].price != points[j - 1].price) {
        throw InputError(file + ": field 'SpotPriceHistory[" + std::to_string(points[j].index) +
                         "]': expected one price per zone, instance type and time; two differ at the same Timestamp");
      }
      changes.emplace_back(points[j].time - start, points[j].price);
    }
    const std::string name = one_type_per_zone ? key.first : key.first + "/" + key.second;
    ImportOptions zone_options = options;
    if (zone_options.instance_type.empty()) zone_options.instance_type = key.second;
    Zone zone = zone_from_options(name, zone_options, kAwsNotice);
    zone.spot.price_per_hour = series_from_changes(changes, changes.front().second, span);
    if (!options.only_zone.empty() && name != options.only_zone && key.first != options.only_zone) continue;
    out.market.zones.push_back(std::move(zone));
  }
  if (out.market.zones.empty())
    throw InputError(file + ": no zone named '" + options.only_zone + "' in the price history");
  out.market.name = out.market.zones.size() == 1 ? out.market.zones.front().name : zone_name_from_path(file);
  out.market.span = span;
  return out;
}

}  // namespace spotsim

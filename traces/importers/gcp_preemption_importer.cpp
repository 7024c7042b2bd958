#include "traces/importers/gcp_preemption_importer.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/timestamps.hpp"

namespace spotsim {

std::string last_path_segment(const std::string& url) {
  const auto slash = url.find_last_of('/');
  return slash == std::string::npos ? url : url.substr(slash + 1);
}

ImportedTrace import_gcp_preemptions(const nlohmann::json& document, const std::string& file,
                                     const ImportOptions& options) {
  if (!document.is_array()) {
    throw InputError(file +
                     ": expected a JSON array of operations (gcloud compute operations list --format=json), got " +
                     describe_json(document));
  }
  std::map<std::string, std::vector<Millis>> by_zone;
  std::vector<std::string> order;
  std::size_t skipped = 0;
  Millis start = kNever, last = -kNever;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const JsonFields op(document[i], file, "[" + std::to_string(i) + "]");
    if (op.string("operationType") != "compute.instances.preempted") {
      ++skipped;
      continue;
    }
    const auto stamp = parse_timestamp(op.string("insertTime"));
    if (!stamp)
      op.fail_value("insertTime", "an RFC 3339 timestamp such as 2019-03-25T13:09:53.235-07:00", op.raw("insertTime"));
    std::string zone = op.has("zone") ? last_path_segment(op.string("zone")) : "";
    if (zone.empty() && op.has("targetLink")) {
      // .../projects/P/zones/Z/instances/I: the zone is two segments before the instance.
      const std::string link = op.string("targetLink");
      const auto pos = link.find("/zones/");
      if (pos != std::string::npos) zone = link.substr(pos + 7, link.find('/', pos + 7) - pos - 7);
    }
    if (zone.empty()) op.fail("zone", "the zone of the preempted instance (a 'zone' or 'targetLink' URL)");
    auto [it, fresh] = by_zone.try_emplace(zone);
    if (fresh) order.push_back(zone);
    it->second.push_back(*stamp);
    start = std::min(start, *stamp);
    last = std::max(last, *stamp);
  }
  if (order.empty()) {
    throw InputError(file + ": no operation of type compute.instances.preempted among " +
                     std::to_string(document.size()) +
                     " operations; expected the output of gcloud compute operations list "
                     "--filter=\"operationType=compute.instances.preempted\" --format=json");
  }
  std::size_t events = 0;
  for (const auto& [zone, times] : by_zone) events += times.size();
  const Millis mean_gap = events > 1 ? (last - start) / static_cast<Millis>(events - 1) : kMillisPerHour;
  const Millis span = options.span.value_or(last - start + std::max<Millis>(mean_gap, 1));
  if (span <= last - start)
    throw InputError(file + ": --span must be longer than the recording (" + std::to_string(last - start) + " ms)");

  ImportedTrace out;
  out.format = "gcp-preemptions";
  for (const std::string& name : order) {
    if (!options.only_zone.empty() && name != options.only_zone) continue;
    auto& times = by_zone[name];
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    Zone zone = zone_from_options(order.size() == 1 && !options.zone_name.empty() ? options.zone_name : name, options,
                                  kGcpNotice);
    for (Millis t : times) zone.spot.preemption_times.push_back(t - start);
    zone.spot.preemption_period = span;
    out.market.zones.push_back(std::move(zone));
  }
  if (out.market.zones.empty()) throw InputError(file + ": no preemption in zone '" + options.only_zone + "'");
  out.market.name = out.market.zones.size() == 1 ? out.market.zones.front().name : zone_name_from_path(file);
  out.market.span = span;
  if (skipped > 0) {
    out.market.provenance.notes =
        std::to_string(skipped) + " operations of other types than compute.instances.preempted skipped.";
  }
  return out;
}

}  // namespace spotsim

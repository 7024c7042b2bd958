#include "traces/importers/lifetime_record_importer.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/text_lines.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/timestamps.hpp"

namespace spotsim {

namespace {

constexpr double kMaxLifetimeSeconds = 1e9;  // ~32 years: anything longer is a unit mistake

std::optional<std::size_t> column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) return std::nullopt;
  return static_cast<std::size_t>(it - header.begin());
}

bool preempted_from_end_event(const TextLines& lines, const std::string& event) {
  if (event == "preempted" || event == "preemption") return true;
  if (event == "user_stop" || event == "stopped" || event == "stop" || event == "terminated" || event == "deleted") {
    return false;
  }
  lines.fail("end_event", "preempted, user_stop, stopped, terminated or deleted", event);
}

}  // namespace

ImportedTrace import_lifetime_csv(const std::string& text, const std::string& file, const ImportOptions& options) {
  TextLines lines(text, file);
  std::vector<std::string> header, fields;
  if (!lines.next(header))
    throw InputError(file + ": empty file; expected a CSV header naming lifetime_s and preempted");
  const auto lifetime_col = column(header, "lifetime_s");
  const auto launch_col = column(header, "launch_time"), end_col = column(header, "end_time");
  const auto preempted_col = column(header, "preempted"), event_col = column(header, "end_event");
  const auto zone_col = column(header, "zone"), type_col = column(header, "machine_type");
  if (!lifetime_col && !(launch_col && end_col)) {
    lines.fail("header", "a column lifetime_s, or launch_time and end_time",
               header.empty() ? "" : header.front() + ",...");
  }
  if (!preempted_col && !event_col) lines.fail("header", "a column preempted or end_event", header.front() + ",...");

  ImportedTrace out;
  out.format = "lifetime-csv";
  while (lines.next(fields)) {
    if (fields.size() != header.size()) {
      lines.fail("line", std::to_string(header.size()) + " fields as in the header",
                 std::to_string(fields.size()) + " fields");
    }
    double seconds = 0.0;
    if (lifetime_col) {
      seconds = lines.number(fields[*lifetime_col], "lifetime_s", 0.0, kMaxLifetimeSeconds);
    } else {
      const auto launch = parse_timestamp(fields[*launch_col]), end = parse_timestamp(fields[*end_col]);
      if (!launch) lines.fail("launch_time", "an ISO-8601 timestamp", fields[*launch_col]);
      if (!end) lines.fail("end_time", "an ISO-8601 timestamp", fields[*end_col]);
      if (*end < *launch) lines.fail("end_time", "a time not before launch_time", fields[*end_col]);
      seconds = to_seconds(*end - *launch);
    }
    bool preempted = false;
    if (preempted_col) {
      const std::string& flag = fields[*preempted_col];
      if (flag == "1" || flag == "true" || flag == "True")
        preempted = true;
      else if (flag == "0" || flag == "false" || flag == "False")
        preempted = false;
      else
        lines.fail("preempted", "0 or 1", flag);
    } else {
      preempted = preempted_from_end_event(lines, fields[*event_col]);
    }
    LabeledLifetime record;
    record.record = {seconds / 3600.0, preempted};
    record.zone = zone_col ? fields[*zone_col] : zone_name_from_path(file);
    record.machine_type = type_col ? fields[*type_col] : options.instance_type;
    if (record.zone.empty()) lines.fail("zone", "a zone name", record.zone);
    out.lifetimes.push_back(std::move(record));
  }
  if (out.lifetimes.empty()) throw InputError(file + ": no lifetime records after the header");
  out.market = market_from_lifetimes(out.lifetimes, options, file);
  return out;
}

ImportedTrace import_gcp_lifetime_json(const nlohmann::json& document, const std::string& file,
                                       const ImportOptions& options) {
  if (!document.is_object() || document.empty()) {
    throw InputError(file +
                     ": expected a JSON object of VM records {\"<name>\": {\"instance_data\": ..., "
                     "\"time_in_sec\": ...}}, got " +
                     describe_json(document));
  }
  ImportedTrace out;
  out.format = "gcp-lifetime-json";
  for (auto it = document.begin(); it != document.end(); ++it) {
    const JsonFields vm(it.value(), file, it.key());
    const JsonFields instance = vm.object("instance_data");
    LabeledLifetime record;
    record.record.hours = vm.number("time_in_sec", 0.0, kMaxLifetimeSeconds) / 3600.0;
    // Two VMs of the published data have both a preemption and a later stop: the preemption ended their life.
    record.record.preempted = vm.has("compute.instances.preempted");
    if (!record.record.preempted && !vm.has("stop")) {
      vm.fail("stop", "either a 'compute.instances.preempted' or a 'stop' operation (how the VM ended)");
    }
    record.zone = instance.string("ZONE");
    record.machine_type = instance.optional_string("MACHINE_TYPE");
    out.lifetimes.push_back(std::move(record));
  }
  out.market = market_from_lifetimes(out.lifetimes, options, file);
  return out;
}

SpotMarket market_from_lifetimes(const std::vector<LabeledLifetime>& lifetimes, const ImportOptions& options,
                                 const std::string& file) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<LifetimeRecord>> by_zone;
  for (const auto& l : lifetimes) {
    if (!options.only_zone.empty() && l.zone != options.only_zone) continue;
    auto [it, inserted] = by_zone.try_emplace(l.zone);
    if (inserted) order.push_back(l.zone);
    it->second.push_back(l.record);
  }
  SpotMarket market;
  market.name = order.size() == 1 ? order.front() : zone_name_from_path(file);
  std::string skipped;
  for (const auto& name : order) {
    auto& records = by_zone[name];
    if (std::none_of(records.begin(), records.end(), [](const LifetimeRecord& r) { return r.preempted; })) {
      skipped += (skipped.empty() ? "" : ", ") + name;
      continue;
    }
    Zone zone = zone_from_options(order.size() == 1 && !options.zone_name.empty() ? options.zone_name : name, options,
                                  kGcpNotice);
    zone.spot.lifetime = EmpiricalLifetime(std::move(records));
    market.zones.push_back(std::move(zone));
  }
  if (!skipped.empty()) market.provenance.notes = "Zones without any preemption left out: " + skipped + ".";
  if (market.zones.empty()) {
    throw InputError(file + ": no zone" + (options.only_zone.empty() ? "" : " named '" + options.only_zone + "'") +
                     " with at least one preempted VM; expected some records with preempted = 1");
  }
  return market;
}

}  // namespace spotsim

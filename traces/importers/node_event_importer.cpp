#include "traces/importers/node_event_importer.hpp"

#include <map>

#include "base/errors.hpp"
#include "base/text_lines.hpp"
#include "traces/importers/cant_be_late_importer.hpp"
#include "traces/importers/series_building.hpp"

namespace spotsim {

ImportedTrace import_node_events(const std::string& text, const std::string& file, const ImportOptions& options) {
  TextLines lines(text, file);
  std::vector<std::string> fields;
  std::map<std::string, Millis> running;  // node -> time added
  std::vector<std::pair<Millis, double>> changes;
  std::vector<Millis> times;
  std::vector<LifetimeRecord> lifetimes;
  while (lines.next(fields)) {
    if (fields.size() != 3)
      lines.fail("line", "3 comma-separated fields: time_ms,add|remove,node",
                 std::to_string(fields.size()) + " fields");
    const Millis t = lines.integer(fields[0], "time_ms", 0, 10'000'000'000'000LL);
    if (!times.empty() && t < times.back()) {
      lines.fail("time_ms", "times in non-decreasing order (previous event at " + std::to_string(times.back()) + ")",
                 fields[0]);
    }
    const std::string& node = fields[2];
    if (node.empty()) lines.fail("node", "a node name", node);
    if (fields[1] == "add") {
      if (!running.emplace(node, t).second) lines.fail("node", "a node not already running (it was added twice)", node);
    } else if (fields[1] == "remove") {
      const auto it = running.find(node);
      if (it == running.end())
        lines.fail("node", "a node that is running (it was never added or already removed)", node);
      lifetimes.push_back({to_hours(t - it->second), true});
      running.erase(it);
    } else {
      lines.fail("event", "'add' or 'remove'", fields[1]);
    }
    times.push_back(t);
    changes.emplace_back(t, static_cast<double>(running.size()));
  }
  if (times.empty()) throw InputError(file + ": empty node event log; expected lines 'time_ms,add|remove,node'");
  const Millis start = times.front();
  for (auto& c : changes) c.first -= start;
  for (auto& t : times) t -= start;
  const Millis span = span_after_last_event(times, options.span);
  if (span <= times.back())
    throw InputError(file + ": --span must be longer than the log (" + std::to_string(times.back()) + " ms)");

  ImportedTrace out;
  out.format = "node-events";
  const std::string name = options.zone_name.empty() ? zone_name_from_path(file) : options.zone_name;
  Zone zone = zone_from_options(name, options, looks_like_gcp_zone(name) ? kGcpNotice : kAwsNotice);
  zone.spot.available = series_from_changes(changes, 0.0, span);
  for (const auto& [node, added] : running) lifetimes.push_back({to_hours(start + span - added), false});
  for (const auto& r : lifetimes) out.lifetimes.push_back({r, name, options.instance_type});
  out.market.name = name;
  out.market.span = span;
  out.market.zones.push_back(std::move(zone));
  return out;
}

}  // namespace spotsim

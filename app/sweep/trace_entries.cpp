#include "app/sweep/trace_entries.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace spotsim {

namespace {

std::vector<std::string> name_list(const JsonFields& f, const std::string& key) {
  const nlohmann::json& array = f.array(key);
  if (array.empty()) f.fail(key, "a non-empty array of names");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string() || array[i].get<std::string>().empty()) {
      f.fail_value(key + "[" + std::to_string(i) + "]", "a non-empty string", array[i]);
    }
    names.push_back(array[i].get<std::string>());
  }
  return names;
}

TraceEntry parse_object_entry(const JsonFields& e) {
  e.reject_unknown({"trace", "regions", "zones", "name"});
  TraceEntry entry;
  entry.ref = e.string("trace");
  if (entry.ref.empty()) e.fail("trace", "a trace path or the name of a shipped trace");
  if (e.has("regions") && e.has("zones")) e.fail("zones", "either 'regions' or 'zones', not both");
  if (e.has("regions")) entry.zones = {ZoneSelection::By::kRegions, name_list(e, "regions")};
  if (e.has("zones")) entry.zones = {ZoneSelection::By::kZones, name_list(e, "zones")};
  if (e.has("name")) {
    entry.name = e.string("name");
    if (entry.name.empty()) e.fail("name", "a non-empty name");
  }
  return entry;
}

}  // namespace

std::vector<TraceEntry> parse_trace_entries(const JsonFields& spec, const std::string& key) {
  const nlohmann::json& array = spec.array(key);
  if (array.empty()) spec.fail(key, "a non-empty array of traces");
  std::vector<TraceEntry> entries;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (array[i].is_object()) {
      entries.push_back(parse_object_entry(JsonFields(array[i], spec.file(), spec.path_of(at))));
      continue;
    }
    if (!array[i].is_string() || array[i].get<std::string>().empty()) {
      spec.fail_value(at, "a trace (a non-empty string, or an object {\"trace\", \"regions\" or \"zones\", \"name\"})",
                      array[i]);
    }
    const std::string ref = array[i].get<std::string>();
    if (std::any_of(entries.begin(), entries.end(),
                    [&](const TraceEntry& e) { return e.ref == ref && e.zones.selects_all(); })) {
      spec.fail_value(at, "each entry once", array[i]);
    }
    entries.push_back({ref, {}, ""});
  }
  return entries;
}

nlohmann::json trace_entries_to_json(const std::vector<TraceEntry>& entries) {
  nlohmann::json out = nlohmann::json::array();
  for (const TraceEntry& e : entries) {
    if (e.zones.selects_all() && e.name.empty()) {
      out.push_back(e.ref);
      continue;
    }
    nlohmann::json entry = {{"trace", e.ref}};
    if (!e.zones.selects_all()) entry[e.zones.by == ZoneSelection::By::kRegions ? "regions" : "zones"] = e.zones.names;
    if (!e.name.empty()) entry["name"] = e.name;
    out.push_back(entry);
  }
  return out;
}

SpotMarket market_of_entry(const TraceEntry& entry, SpotMarket market, const std::string& what) {
  if (!entry.zones.selects_all()) {
    const bool regions = entry.zones.by == ZoneSelection::By::kRegions;
    market = select_zones(market, entry.zones, what + (regions ? "regions" : "zones"));
    if (entry.name.empty()) {
      std::string joined;
      for (const std::string& n : entry.zones.names) joined += (joined.empty() ? "" : "+") + n;
      market.name += "/" + joined;
    }
  }
  if (!entry.name.empty()) market.name = entry.name;
  return market;
}

}  // namespace spotsim

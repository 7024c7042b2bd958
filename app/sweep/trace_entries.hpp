#pragma once
// The `traces` field of an experiment spec (docs/experiments.md#traces): each entry is a trace reference
// ("gcp-h100-13-zones", "traces/x.json") or an object naming part of a trace, so that one sweep can compare
// region sets of one recording:
//   {"trace": "gcp-h100-13-zones", "regions": ["us-central1", "us-east4"], "name": "gcp-2-regions"}
// ("zones" instead of "regions" selects zones; "name" defaults to "<trace name>/<names joined by +>").
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "base/json_fields.hpp"
#include "model/market/zone_selection.hpp"

namespace spotsim {

struct TraceEntry {
  std::string ref;      // a path or the name of a shipped trace, as written
  ZoneSelection zones;  // all zones unless the entry is an object with "regions" or "zones"
  std::string name;     // the name rows and seeds are keyed by; "" = the trace's own (or the default above)
};

// InputError naming the field for an empty list, a bad entry, or a plain reference listed twice.
std::vector<TraceEntry> parse_trace_entries(const JsonFields& spec, const std::string& key);

// As written back into the canonical spec: a plain reference stays a string (so existing spec hashes hold).
nlohmann::json trace_entries_to_json(const std::vector<TraceEntry>& entries);

// The market an entry describes: the selection applied (errors prefixed by `what`) and the name set.
SpotMarket market_of_entry(const TraceEntry& entry, SpotMarket market, const std::string& what);

}  // namespace spotsim

#include "experiments/report/timeline_reader.hpp"

#include <cmath>
#include <map>
#include <sstream>

#include "sim/errors.hpp"
#include "traces/input_file.hpp"
#include "traces/json_fields.hpp"

namespace spotsim {

namespace {

// A run's log being turned into spans: what is open at the latest event.
struct OpenRun {
  TimelineRun* run = nullptr;
  bool holding = false;
  HeldSpan instance;
  bool in_phase = false;
  PhaseSpan phase;
  double last = 0.0;
};

void close_spans(OpenRun& open, double t) {
  if (open.holding) {
    open.instance.to = t;
    open.run->held.push_back(open.instance);
    open.holding = false;
  }
  if (open.in_phase) {
    open.phase.to = t;
    open.run->phases.push_back(open.phase);
    open.in_phase = false;
  }
}

}  // namespace

TimelineFile read_timeline_file(const std::string& path) { return read_timeline_text(read_input_file(path), path); }

TimelineFile read_timeline_text(const std::string& contents, const std::string& path) {
  std::istringstream in(contents);
  TimelineFile file;
  file.source = path;
  std::string text;
  std::size_t line = 0;
  const auto fail = [&](const std::string& what) -> void {
    throw InputError(path + ": line " + std::to_string(line) + ": " + what);
  };
  if (!std::getline(in, text)) throw InputError(path + ": empty (expected a `simulate --timeline` file)");
  ++line;
  file.header = parse_json_text(text, path + " line 1");
  if (!file.header.is_object() || file.header.value("format", "") != "spotsim-timeline") {
    fail("expected the header of a `simulate --timeline` file ({\"format\": \"spotsim-timeline\", ...})");
  }
  if (file.header.value("version", 0) != 1) fail("expected timeline format version 1");
  if (file.header.contains("zones") && file.header["zones"].is_array()) {
    for (const auto& zone : file.header["zones"]) {
      file.zone_names.push_back(zone.is_object() && zone.contains("name") && zone["name"].is_string()
                                    ? zone["name"].get<std::string>()
                                    : "?");
    }
  }
  std::map<std::uint64_t, OpenRun> open;
  if (!file.header.contains("replications") || !file.header["replications"].is_array()) {
    fail("expected 'replications': the list of replications logged");
  }
  for (const auto& r : file.header["replications"]) {
    if (!r.is_number_unsigned()) fail("expected 'replications' to hold replication indices");
    if (open.count(r.get<std::uint64_t>())) fail("replication " + std::to_string(r.get<std::uint64_t>()) + " listed twice");
    TimelineRun run;
    run.replication = r.get<std::uint64_t>();
    file.runs.push_back(std::move(run));
    open[r.get<std::uint64_t>()] = OpenRun{};
  }
  for (std::size_t i = 0; i < file.runs.size(); ++i) open[file.runs[i].replication].run = &file.runs[i];
  while (std::getline(in, text)) {
    ++line;
    if (text.empty()) continue;
    const nlohmann::json event = parse_json_text(text, path + " line " + std::to_string(line));
    if (!event.is_object() || !event.contains("replication") || !event["replication"].is_number_unsigned() ||
        !event.contains("event") || !event["event"].is_string()) {
      fail("expected an event: {\"replication\": N, \"event\": NAME, \"t_hours\": T, ...}");
    }
    const auto found = open.find(event["replication"].get<std::uint64_t>());
    if (found == open.end()) fail("replication " + event["replication"].dump() + " is not in the header's list");
    OpenRun& run = found->second;
    const std::string name = event["event"].get<std::string>();
    if (name == "truncated") {
      run.run->truncated = true;
      continue;
    }
    if (!event.contains("t_hours") || !event["t_hours"].is_number() || !std::isfinite(event["t_hours"].get<double>()) ||
        event["t_hours"].get<double>() < run.last) {
      fail("expected 't_hours': a number of hours, not decreasing within a replication");
    }
    const double t = event["t_hours"].get<double>();
    run.last = t;
    run.run->end = t;
    if (event.contains("cost_usd") && event["cost_usd"].is_number()) run.run->cost = event["cost_usd"].get<double>();
    const std::string purchase = event.value("purchase", "none");
    const int zone = event.contains("zone") && event["zone"].is_number_integer() ? event["zone"].get<int>() : -1;
    if (name == "phase") {
      if (!event.contains("phase") || !event["phase"].is_string()) fail("expected 'phase' in a phase event");
      if (run.in_phase) {
        run.phase.to = t;
        run.run->phases.push_back(run.phase);
      }
      run.phase = PhaseSpan{t, t, event["phase"].get<std::string>()};
      run.in_phase = true;
    } else if (name == "instance_acquired") {
      if (purchase != "spot" && purchase != "on-demand") fail("expected 'purchase' spot or on-demand");
      if (run.holding) {
        run.instance.to = t;
        run.run->held.push_back(run.instance);
      }
      run.instance = HeldSpan{t, t, purchase == "spot", zone};
      run.holding = true;
    } else if (name == "instance_released") {
      if (run.holding) {
        run.instance.to = t;
        run.run->held.push_back(run.instance);
        run.holding = false;
      }
    } else if (name == "finished") {
      close_spans(run, t);
      run.run->finished = true;
      run.run->completed = event.value("completed", false);
    } else if (name == "preemption" || name == "preemption_notice" || name == "checkpoint_done" ||
               name == "transfer_done" || name == "nodes_changed" || name == "reconfiguring") {
      run.run->marks.push_back({t, name});
    } else {
      fail("unknown event '" + name.substr(0, 40) + "'");
    }
  }
  for (auto& [replication, run] : open) close_spans(run, run.last);
  return file;
}

}  // namespace spotsim

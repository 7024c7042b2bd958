#include "app/report/timeline_reader.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>

#include "base/errors.hpp"
#include "base/input_file.hpp"
#include "base/json_fields.hpp"

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
  int lines = 0;  // event lines read (truncated aside): the first decides whether the run carries instance counts
};

// The fields every line of an elastic run carries (docs/outputs.md#timeline).
constexpr const char* kCountFields[] = {"spot_nodes", "on_demand_nodes", "training_nodes"};

// A new step of an elastic run's counts. Equal consecutive counts are one step; several lines at one instant
// (a preemption, counted before the loss, then the release) leave only the last counts there.
void add_count_step(TimelineRun& run, const NodeCountStep& step) {
  auto same_counts = [](const NodeCountStep& a, const NodeCountStep& b) {
    return a.spot == b.spot && a.on_demand == b.on_demand && a.training == b.training;
  };
  if (!run.node_counts.empty() && same_counts(run.node_counts.back(), step)) return;
  if (!run.node_counts.empty() && run.node_counts.back().at == step.at) {
    run.node_counts.pop_back();
    if (!run.node_counts.empty() && same_counts(run.node_counts.back(), step)) return;
  }
  run.node_counts.push_back(step);
}

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
  if (!file.header.is_object() || !file.header.contains("format") || file.header["format"] != "spotsim-timeline") {
    fail("expected the header of a `simulate --timeline` file ({\"format\": \"spotsim-timeline\", ...})");
  }
  if (!file.header.contains("version") || !file.header["version"].is_number_integer() || file.header["version"] != 1) {
    fail("expected timeline format version 1");
  }
  if (file.header.contains("zones") && file.header["zones"].is_array()) {
    for (const auto& zone : file.header["zones"]) {
      file.zone_names.push_back(zone.is_object() && zone.contains("name") && zone["name"].is_string()
                                    ? zone["name"].get<std::string>()
                                    : "?");
    }
  }
  if (file.header.contains("engine")) {
    const nlohmann::json& engine = file.header["engine"];
    if (!engine.is_string() || (engine != "single" && engine != "elastic")) {
      fail("expected 'engine' \"single\" or \"elastic\"");
    }
    file.elastic = engine == "elastic";
  }
  if (file.elastic && file.header.contains("job") && file.header["job"].is_object()) {
    const nlohmann::json& job = file.header["job"];
    for (const auto& [key, into] : {std::pair{"nodes", &file.job_nodes}, std::pair{"min_nodes", &file.job_min_nodes}}) {
      if (!job.contains(key)) continue;
      if (!job[key].is_number_unsigned() || job[key].get<std::uint64_t>() < 1 ||
          job[key].get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
        fail(std::string("expected 'job.") + key + "' to be a positive integer");
      }
      *into = static_cast<int>(job[key].get<std::uint64_t>());
    }
  }
  std::map<std::uint64_t, OpenRun> open;
  if (!file.header.contains("replications") || !file.header["replications"].is_array()) {
    fail("expected 'replications': the list of replications logged");
  }
  for (const auto& r : file.header["replications"]) {
    if (!r.is_number_unsigned()) fail("expected 'replications' to hold replication indices");
    if (open.count(r.get<std::uint64_t>()))
      fail("replication " + std::to_string(r.get<std::uint64_t>()) + " listed twice");
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
    // Typed fields: one of another JSON type is an input error naming the line and the field.
    const JsonFields fields(event, path + ": line " + std::to_string(line), "");
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
    // Instance counts: all three fields or none, and the same choice on every line of a replication.
    int carried = 0;
    for (const char* field : kCountFields) carried += event.contains(field) ? 1 : 0;
    if (carried != 0 && carried != 3) {
      fail("expected 'spot_nodes', 'on_demand_nodes' and 'training_nodes' together (an elastic run's counts)");
    }
    const bool counts = carried == 3;
    if (file.elastic && !counts) {
      fail("expected 'spot_nodes', 'on_demand_nodes' and 'training_nodes' on every line of an elastic timeline");
    }
    if (run.lines++ == 0) {
      run.run->multi_node = counts;
    } else if (run.run->multi_node != counts) {
      fail(std::string("replication ") + std::to_string(run.run->replication) + " mixes lines " +
           (counts ? "with" : "without") + " 'spot_nodes' (instance counts) after lines " +
           (counts ? "without" : "with") + " them");
    }
    if (counts) {
      int value[3] = {0, 0, 0};
      for (int k = 0; k < 3; ++k) {
        value[k] = static_cast<int>(fields.integer(kCountFields[k], 0, std::numeric_limits<int>::max()));
      }
      if (event.contains("nodes")) {
        const nlohmann::json& nodes = event["nodes"];
        if (!nodes.is_number_integer() || nodes.get<std::int64_t>() != static_cast<std::int64_t>(value[0]) + value[1]) {
          fail("expected 'nodes' = spot_nodes + on_demand_nodes (" + std::to_string(value[0]) + " + " +
               std::to_string(value[1]) + "), not " + nodes.dump().substr(0, 40));
        }
      }
      add_count_step(*run.run, NodeCountStep{t, value[0], value[1], value[2]});
    }
    const std::string purchase = fields.optional_string("purchase", "none");
    int zone = -1;  // (a zone index outside the header's list is drawn as "zone N")
    if (event.contains("zone") && event["zone"].is_number_integer()) {
      const std::int64_t z = event["zone"].get<std::int64_t>();
      if (z >= 0 && z < std::numeric_limits<int>::max()) zone = static_cast<int>(z);
    }
    if (name == "phase" || name == "reconfiguring") {
      // Reconfiguring (training paused while the set of instances re-forms) lasts until the next phase, as one.
      if (name == "phase" && (!event.contains("phase") || !event["phase"].is_string())) {
        fail("expected 'phase' in a phase event");
      }
      if (run.in_phase) {
        run.phase.to = t;
        run.run->phases.push_back(run.phase);
      }
      run.phase = PhaseSpan{t, t, name == "phase" ? event["phase"].get<std::string>() : name};
      run.in_phase = true;
    } else if (counts && (name == "instance_acquired" || name == "instance_released")) {
      // Several instances of both kinds at once: the counts above say what is held, not one span per instance.
      if (purchase != "spot" && purchase != "on-demand") fail("expected 'purchase' spot or on-demand");
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
      run.run->completed = fields.boolean("completed", false);
    } else if (name == "preemption" || name == "preemption_notice" || name == "checkpoint_done" ||
               name == "transfer_done") {
      run.run->marks.push_back({t, name});
    } else if (name == "nodes_changed") {
      // The training set's size changed: the counts (training_nodes) show it; no mark.
    } else {
      fail("unknown event '" + name.substr(0, 40) + "'");
    }
  }
  for (auto& [replication, run] : open) close_spans(run, run.last);
  return file;
}

}  // namespace spotsim

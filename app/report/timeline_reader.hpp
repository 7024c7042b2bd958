#pragma once
// Reads a `simulate --timeline` file (docs/outputs.md#timeline) into what the report draws per run: the spans
// instances were held (spot or on-demand, in which zone), the job's phases, and the instants of preemptions,
// notices, checkpoints and migrations. Runs of the elastic multi-node engine (docs/elastic.md), whose lines carry
// `spot_nodes`, `on_demand_nodes` and `training_nodes`, get a step series of those counts instead of held spans.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace spotsim {

struct HeldSpan {
  double from = 0.0, to = 0.0;  // hours since the job's start
  bool spot = true;
  int zone = -1;
};

struct PhaseSpan {
  double from = 0.0, to = 0.0;
  std::string phase;  // as in the file: idle, starting, restoring, computing, checkpointing, draining, migrating;
                      // and "reconfiguring" (from the `reconfiguring` event: training paused while the set re-forms)
};

// An elastic run's instance counts from `at` until the next step (or the run's end).
struct NodeCountStep {
  double at = 0.0;              // hours since the job's start
  int spot = 0, on_demand = 0;  // instances held (booting, idle or training)
  int training = 0;             // the training set's size
  bool operator==(const NodeCountStep&) const = default;
};

struct TimelineMark {
  double at = 0.0;
  std::string event;  // preemption, preemption_notice, checkpoint_done, transfer_done
};

struct TimelineRun {
  std::uint64_t replication = 0;
  std::vector<HeldSpan> held;              // single-instance runs only
  std::vector<NodeCountStep> node_counts;  // multi-node runs only: one step per change of the counts
  std::vector<PhaseSpan> phases;
  std::vector<TimelineMark> marks;
  double end = 0.0;       // hours: the last event
  double cost = 0.0;      // USD booked at the last event
  bool finished = false;  // the log has the run's end
  bool completed = false;
  bool truncated = false;   // the writer stopped at its event limit
  bool multi_node = false;  // its lines carry the instance counts (the elastic engine): drawn from node_counts
};

struct TimelineFile {
  std::string source;
  nlohmann::json header;
  std::vector<std::string> zone_names;   // by zone index
  std::vector<TimelineRun> runs;         // in the header's order
  bool elastic = false;                  // header "engine": "elastic": every event line carries the counts
  int job_nodes = 0, job_min_nodes = 0;  // the header's job.nodes (N) and job.min_nodes; 0 when absent
};

// InputError naming the file, the line and what was expected on anything that is not a timeline file.
TimelineFile read_timeline_file(const std::string& path);
// The same from the file's text; `source` names it in errors (e.g. "r.json: field 'timeline'").
TimelineFile read_timeline_text(const std::string& text, const std::string& source);

}  // namespace spotsim

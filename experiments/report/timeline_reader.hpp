#pragma once
// Reads a `simulate --timeline` file (docs/outputs.md#timeline) into what the report draws per run: the spans
// instances were held (spot or on-demand, in which zone), the job's phases, and the instants of preemptions,
// notices, checkpoints and migrations.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace spotsim {

struct HeldSpan {
  double from = 0.0, to = 0.0;  // hours since the job's start
  bool spot = true;
  int zone = -1;
};

struct PhaseSpan {
  double from = 0.0, to = 0.0;
  std::string phase;  // as in the file: idle, starting, restoring, computing, checkpointing, draining, migrating
};

struct TimelineMark {
  double at = 0.0;
  std::string event;  // preemption, preemption_notice, checkpoint_done, transfer_done
};

struct TimelineRun {
  std::uint64_t replication = 0;
  std::vector<HeldSpan> held;
  std::vector<PhaseSpan> phases;
  std::vector<TimelineMark> marks;
  double end = 0.0;       // hours: the last event
  double cost = 0.0;      // USD booked at the last event
  bool finished = false;  // the log has the run's end
  bool completed = false;
  bool truncated = false;  // the writer stopped at its event limit
};

struct TimelineFile {
  std::string source;
  nlohmann::json header;
  std::vector<std::string> zone_names;  // by zone index
  std::vector<TimelineRun> runs;        // in the header's order
};

// InputError naming the file, the line and what was expected on anything that is not a timeline file.
TimelineFile read_timeline_file(const std::string& path);
// The same from the file's text; `source` names it in errors (e.g. "r.json: field 'timeline'").
TimelineFile read_timeline_text(const std::string& text, const std::string& source);

}  // namespace spotsim

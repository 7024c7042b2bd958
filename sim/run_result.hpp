#pragma once
// The outcome of one replication: the metrics reported per run (see docs/outputs.md for each definition).
#include <cmath>
#include <cstdint>

namespace spotsim {

// FNV-1a style mixing of (time, kind) into RunResult::fingerprint: cheap enough for every event, sensitive to any
// change of trajectory.
inline std::uint64_t mix_fingerprint(std::uint64_t h, std::int64_t time, std::uint8_t kind) {
  h ^= static_cast<std::uint64_t>(time) * 0x9e3779b97f4a7c15ULL + kind;
  return h * 0x100000001b3ULL;
}

struct RunResult {
  std::uint64_t replication = 0;
  bool completed = false;
  bool deadline_met = false;      // true when there is no deadline and the job completed
  double completion_hours = 0.0;  // job start -> finish (or -> give-up time when not completed)
  double cost_total = 0.0;        // USD
  double cost_spot = 0.0;
  double cost_on_demand = 0.0;
  int preemptions = 0;
  int checkpoints = 0;            // completed checkpoint writes
  int spot_starts = 0;
  int on_demand_starts = 0;
  double lost_work_hours = 0.0;   // compute thrown away by preemptions (and by switches without a checkpoint)
  double checkpoint_hours = 0.0;  // wall time spent writing checkpoints (including writes cut short)
  double restore_hours = 0.0;
  double startup_hours = 0.0;
  double wait_hours = 0.0;        // no instance held
  double spot_hours = 0.0;        // wall time holding spot instances
  double on_demand_hours = 0.0;
  double trace_start_hours = 0.0;  // where in the recorded trace this replication began
  // The exact offline optimum on this replication's window (sim/offline_optimum.hpp), when asked for; NaN if not.
  double optimum_cost = NAN;
  std::uint64_t events = 0;       // events processed
  std::uint64_t fingerprint = 0;  // hash of the event trajectory (time, kind), to detect behaviour changes
};

}  // namespace spotsim

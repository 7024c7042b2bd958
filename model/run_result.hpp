#pragma once
// The outcome of one replication: the metrics reported per run (see docs/outputs.md for each definition).
#include <cmath>
#include <cstdint>

#include "model/checkpoint_interval_use.hpp"

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
  bool stopped_early = false;     // a campaign stopped it at an early-stopping rung (not completed, not failed)
  double completion_hours = 0.0;  // job start -> finish (or -> give-up time when not completed)
  double cost_total = 0.0;        // USD: spot + on-demand + egress
  double cost_spot = 0.0;
  double cost_on_demand = 0.0;
  double cost_egress = 0.0;  // moving the checkpoint between regions (docs/migration.md)
  int preemptions = 0;
  int checkpoints = 0;  // completed checkpoint writes
  int spot_starts = 0;
  int on_demand_starts = 0;
  double lost_work_hours = 0.0;   // compute thrown away by preemptions (and by switches without a checkpoint)
  double checkpoint_hours = 0.0;  // wall time spent writing checkpoints (including writes cut short)
  double restore_hours = 0.0;
  double startup_hours = 0.0;
  double wait_hours = 0.0;  // no instance held
  double spot_hours = 0.0;  // wall time holding spot instances
  double on_demand_hours = 0.0;
  int migrations = 0;            // completed transfers of the saved state to another region
  double migration_hours = 0.0;  // wall time spent transferring (instance held, no work), cut-short ones included
  // The cost ledger: what cost_total went to, in USD; these entries and cost_egress sum to cost_total (to
  // floating-point rounding). Instance time
  // is priced at the instance's price for each phase it spent there (docs/outputs.md#cost-ledger).
  double ledger_compute = 0.0;    // compute that counted towards the finished (or, at give-up, saved) work
  double ledger_lost_work = 0.0;  // compute later thrown away (preemption, switch without checkpoint, give-up)
  double ledger_startup = 0.0;
  double ledger_restore = 0.0;
  double ledger_checkpoint = 0.0;   // checkpoint writes, cut-short ones included
  double ledger_transfer = 0.0;     // instance time held while the checkpoint moved between regions
  double ledger_idle = 0.0;         // held but idle (draining after an emergency checkpoint, after the work's end)
  double ledger_rounding = 0.0;     // billing minimum and increment beyond the time held
  double ledger_reconfigure = 0.0;  // the training set paused to re-form after a loss or a join (elastic jobs)
  // Multi-node jobs (docs/elastic.md).
  int nodes_lost = 0;        // instances taken by preemptions (a preemption may take several)
  int reconfigurations = 0;  // pauses to re-form the training set (elastic jobs)
  double reconfigure_hours = 0.0;
  double spot_node_hours = 0.0;  // instance-hours held, each instance counted (spot_hours counts wall time)
  double on_demand_node_hours = 0.0;
  // Work done and kept, in hours one instance would need (the job's work scaled by its speed-up on all nodes):
  // value = work_done_hours / cost_total is training per dollar, comparable across job sizes and modes.
  double work_done_hours = 0.0;
  double trace_start_hours = 0.0;  // where in the recorded trace this replication began
  // The exact offline optimum on this replication's window (optimum/offline_optimum.hpp), when asked for; NaN if not.
  double optimum_cost = NAN;
  // The periodic checkpoint intervals the checkpoint policy set on spot and on on-demand instances during this run
  // (model/interval_recording_checkpoint.hpp); empty for a policy without periodic checkpoints.
  CheckpointIntervalUse checkpoint_interval_spot;
  CheckpointIntervalUse checkpoint_interval_on_demand;
  std::uint64_t events = 0;       // events processed
  std::uint64_t fingerprint = 0;  // hash of the event trajectory (time, kind), to detect behaviour changes
};

}  // namespace spotsim

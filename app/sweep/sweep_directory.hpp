#pragma once
// The layout of a sweep's output directory, and its state file.
//
//   DIR/sweep.json            what is being computed here: the canonical spec, its hash, the traces with their
//                             seeds, the tool version and git revision, the shard and its chunk range
//   DIR/chunks/chunk-N.csv    finished runs, one file per chunk, each written atomically (temp file + rename)
//   DIR/runs.csv, DIR/summary.json, DIR/summary.md, DIR/manifest.json    the results, once every chunk is there
//
// sweep.json is what lets `--resume` refuse to mix results of different specs or builds, and what `sweep merge`
// rebuilds the plan from (without needing the trace files).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.hpp"

namespace spotsim {

struct SweepState {
  SweepPlan plan;
  ShardSelection shard;
  ChunkRange chunks;
  std::string version;
  std::string git_revision;
};

std::string sweep_state_path(const std::string& dir);
std::string chunk_path(const std::string& dir, std::uint64_t chunk);

nlohmann::json sweep_state_json(const SweepPlan& plan, ShardSelection shard);
// Reads DIR/sweep.json back into a plan (re-validating the embedded spec); InputError naming the file.
SweepState read_sweep_state(const std::string& dir);

// Creates DIR and DIR/chunks and writes sweep.json. With `resume`, an existing sweep.json must describe the same
// spec, traces, shard and build; without it, an existing sweep.json is an error (finished runs are never lost).
void prepare_sweep_directory(const std::string& dir, const SweepPlan& plan, ShardSelection shard, bool resume);

// The chunks of [range) whose file exists and is complete (run_rows.hpp: chunk_file_problem). A damaged file
// counts as unfinished, with a line on stderr saying it will be recomputed.
std::vector<bool> finished_chunks(const std::string& dir, ChunkRange range);

}  // namespace spotsim

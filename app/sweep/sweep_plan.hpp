#pragma once
// A spec expanded into numbered configurations and runs.
//
// Configuration index = ((trace · J + job) · P + policy) · C + checkpoint (traces outermost, checkpoint policies
// innermost); run k is replication k mod R of configuration k div R. Every configuration of a trace uses the
// same seed, derived from the base seed and the trace's name, so replication r sees the same preemptions under
// every policy, checkpoint policy and job parameter set (common random numbers). A run's result therefore depends
// only on (spec, k): not on threads, chunks or shards.
//
// Runs are grouped into chunks of `chunk_runs` consecutive run indices: the unit written to disk, skipped on
// resume and handed to shards (shard I of N takes a contiguous block of chunks).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/sweep/experiment_spec.hpp"
#include "model/market/spot_market.hpp"
#include "optimum/window_optimum_grid.hpp"

namespace spotsim {

struct TraceInfo {
  std::string ref;           // as written in the spec
  std::string name;          // the trace's own name; unique within a spec
  std::uint64_t seed = 0;    // the seed of every configuration on this trace
  std::string content_hash;  // FNV-1a of the file, hex: which data the results came from
  // Per job parameter set: the first zone's mean time between preemptions for the job's nodes (h), or a negative
  // value when spot is never preempted there; the M of the Young/Daly references in the tuning report.
  std::vector<double> spot_mtbf_hours;
  // With "regret" only (else empty), per job parameter set: the offline optimum's grid and whether it is exact.
  std::vector<WindowOptimumGrid> optimum_by_job;
};

struct Configuration {
  std::size_t index = 0;
  std::size_t trace = 0;
  std::size_t job = 0;
  std::size_t policy = 0;
  std::size_t checkpoint = 0;
};

struct ChunkRange {
  std::uint64_t first = 0;  // chunk indices [first, end)
  std::uint64_t end = 0;
};

struct SweepPlan {
  ExperimentSpec spec;
  std::vector<TraceInfo> traces;
  std::vector<Configuration> configurations;
  std::string spec_hash;  // hex FNV-1a of the canonical spec

  std::uint64_t run_count() const { return configurations.size() * spec.replications; }
  std::uint64_t chunk_count() const { return (run_count() + spec.chunk_runs - 1) / spec.chunk_runs; }
  std::uint64_t chunk_begin(std::uint64_t chunk) const { return chunk * spec.chunk_runs; }
  std::uint64_t chunk_end(std::uint64_t chunk) const;
  const Configuration& configuration_of_run(std::uint64_t run) const {
    return configurations[static_cast<std::size_t>(run / spec.replications)];
  }
  std::uint64_t replication_of_run(std::uint64_t run) const { return run % spec.replications; }
  std::uint64_t seed_of(const Configuration& c) const { return traces[c.trace].seed; }
  const std::string& policy_of(const Configuration& c) const { return spec.policies[c.policy]; }
  const std::string& checkpoint_of(const Configuration& c) const { return spec.checkpoints[c.checkpoint]; }
  const std::string& job_label_of(const Configuration& c) const { return spec.jobs[c.job].label; }
};

// seed_trace = splitmix64(splitmix64(base seed) xor FNV-1a(trace name)): keyed by the name, not the position,
// so adding a trace to a spec leaves the others' results unchanged.
std::uint64_t trace_seed(std::uint64_t base_seed, const std::string& trace_name);

struct LoadedTraces {
  std::vector<TraceInfo> info;
  std::vector<SpotMarket> markets;
};
// Resolves each trace reference (relative to the spec's directory first, then as given, then by name in the
// shipped library), reads it, and derives its seed. `spec_file` names the spec in error messages.
LoadedTraces load_traces(const ExperimentSpec& spec, const std::string& spec_file);

SweepPlan plan_sweep(ExperimentSpec spec, std::vector<TraceInfo> traces);

// "I/N" with 1 <= I <= N (shards are numbered from 1 on the command line).
struct ShardSelection {
  std::uint64_t index = 1;
  std::uint64_t count = 1;
};
ShardSelection parse_shard(const std::string& text);
// Shard I of N: chunks [floor((I-1)·C/N), floor(I·C/N)).
ChunkRange shard_chunks(const SweepPlan& plan, ShardSelection shard);

nlohmann::json trace_info_json(const TraceInfo& info);
TraceInfo trace_info_from_json(const nlohmann::json& j, const std::string& file);

}  // namespace spotsim

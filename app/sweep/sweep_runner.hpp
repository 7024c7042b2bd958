#pragma once
// Runs the chunks of a sweep (or of one shard of it) on a pool of threads and persists each finished chunk
// atomically, so an interruption loses at most the chunks in flight and `resume` picks up where it stopped.
// Workers take whole chunks in increasing order; a chunk's runs depend only on (spec, run index), so the files
// written are the same for any thread count.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.hpp"
#include "engine/replication_runner.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

// Everything needed to compute any run of a plan: one scenario per (trace, job) and one policy factory per spec,
// built (and validated) once, shared read-only by the workers.
class SweepExecutor {
 public:
  SweepExecutor(const SweepPlan& plan, const std::vector<SpotMarket>& markets);
  // Runs [first, end), grouped by configuration, on the calling thread.
  std::vector<RunResult> run_range(std::uint64_t first, std::uint64_t end) const;

 private:
  const SweepPlan& plan_;
  std::vector<std::unique_ptr<Scenario>> scenarios_;  // index trace * J + job
  std::vector<PolicyFactories> factories_;            // index policy * C + checkpoint
};

struct SweepRunOptions {
  int threads = 0;  // 0 = all cores; never changes a result
  bool resume = false;
  ShardSelection shard;
  // Stops as if interrupted once this many chunks were computed in this call (0 = never). For tests of --resume.
  std::uint64_t stop_after_chunks = 0;
  // Runs of this shard done (finished earlier ones included) and in total: once at the start, then after each
  // chunk. Calls are serialised.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct SweepRunOutcome {
  std::uint64_t chunks_in_shard = 0;
  std::uint64_t chunks_skipped = 0;  // already finished (resume)
  std::uint64_t chunks_run = 0;
  bool complete = false;  // every chunk of the shard is on disk
};

// Every run of the plan in memory, no files (for `regress` and the benchmarks); the same results as run_sweep.
std::vector<RunResult> run_all_runs(const SweepPlan& plan, const std::vector<SpotMarket>& markets, int threads);

SweepRunOutcome run_sweep(const SweepPlan& plan, const std::vector<SpotMarket>& markets, const std::string& out_dir,
                          const SweepRunOptions& options);

}  // namespace spotsim

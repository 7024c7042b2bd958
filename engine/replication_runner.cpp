#include "engine/replication_runner.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "base/errors.hpp"
#include "base/parallel_workers.hpp"
#include "engine/engine_factory.hpp"
#include "model/interval_recording_checkpoint.hpp"
#include "optimum/window_optimum.hpp"

namespace spotsim {

int resolve_thread_count(int requested) {
  if (requested > 0) return requested;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

std::vector<RunResult> run_replications(const Scenario& scenario, const PolicyFactories& policies,
                                        const ReplicationPlan& plan) {
  std::vector<RunResult> results(plan.count);
  const auto threads = static_cast<std::size_t>(std::clamp<std::uint64_t>(
      static_cast<std::uint64_t>(resolve_thread_count(plan.threads)), 1, std::max<std::uint64_t>(plan.count, 1)));
  // Work is handed out in small chunks from a shared counter: balanced even when run lengths vary a lot.
  constexpr std::uint64_t kChunk = 64;
  std::atomic<std::uint64_t> next{0};
  check_engine_fits(scenario, policies);  // before any worker starts (the rest is checked as each makes its engine)
  if (scenario.computes_optimum()) require_optimum_inputs(scenario);
  auto worker = [&]() {
    // Wrapped to note the intervals each run uses (the outputs' checkpoint_interval_* metrics).
    auto checkpoint = std::make_unique<IntervalRecordingCheckpoint>(policies.checkpoint());
    OfflineOptimumSolver solver;
    const TraceStart& start = scenario.trace_start();
    EngineInstance engine = make_engine(scenario, policies, *checkpoint);
    for (;;) {
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= plan.count) break;
      const std::uint64_t end = std::min(begin + kChunk, plan.count);
      for (std::uint64_t i = begin; i < end; ++i) {
        const std::uint64_t replication = plan.first_replication + i;
        results[i] = engine.engine->run(plan.seed, replication);
        checkpoint->record_into(results[i]);
        if (!scenario.computes_optimum()) continue;
        const Millis window =
            start.random ? random_trace_start(scenario.market(), plan.seed, replication) : start.offset;
        results[i].optimum_cost = window_optimum_cost(scenario, window, solver);
      }
      if (plan.progress) plan.progress->done.fetch_add(end - begin, std::memory_order_relaxed);
    }
  };
  run_workers(threads, worker, [&] { next.store(plan.count); });
  return results;
}

}  // namespace spotsim

#include "app/sweep/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "base/atomic_file.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

SweepExecutor::SweepExecutor(const SweepPlan& plan, const std::vector<SpotMarket>& markets) : plan_(plan) {
  for (std::size_t t = 0; t < plan.traces.size(); ++t) {
    for (const JobVariant& variant : plan.spec.jobs) {
      const JobSpec job = job_on_market(variant.job, variant.gpu_step_times, markets[t], plan.traces[t].ref);
      scenarios_.push_back(std::make_unique<Scenario>(markets[t], job, plan.spec.trace_start));
      if (plan.spec.cant_be_late_mode) scenarios_.back()->use_cant_be_late_mode();
      scenarios_.back()->compute_optimum(plan.spec.regret);
    }
  }
  const PolicyRegistry registry = policy_registry();
  for (const std::string& policy : plan.spec.policies) {
    // A multi-node policy serves the spec's jobs with min_nodes (the elastic engine); the runner refuses a
    // pairing of the wrong kinds by name.
    const bool multi_node = registry.is_node_policy(policy);
    for (const std::string& checkpoint : plan.spec.checkpoints) {
      PolicyFactories factories;
      if (multi_node) {
        factories.nodes = registry.node_factory(policy);
      } else {
        factories.selection = registry.selection_factory(policy);
      }
      factories.checkpoint = registry.checkpoint_factory(checkpoint);
      factories_.push_back(std::move(factories));
    }
  }
}

std::vector<RunResult> SweepExecutor::run_range(std::uint64_t first, std::uint64_t end) const {
  std::vector<RunResult> results;
  results.reserve(end - first);
  const std::uint64_t replications = plan_.spec.replications;
  const std::size_t checkpoints = plan_.spec.checkpoints.size();
  for (std::uint64_t run = first; run < end;) {
    const Configuration& c = plan_.configuration_of_run(run);
    const std::uint64_t group_end = std::min(end, (c.index + 1) * replications);
    const Scenario& scenario = *scenarios_[c.trace * plan_.spec.jobs.size() + c.job];
    const PolicyFactories& policies = factories_[c.policy * checkpoints + c.checkpoint];
    auto group = run_replications(scenario, policies,
                                  ReplicationPlan{plan_.seed_of(c), plan_.replication_of_run(run), group_end - run, 1});
    results.insert(results.end(), group.begin(), group.end());
    run = group_end;
  }
  return results;
}

namespace {

// Runs work(chunk) for each chunk of `pending` on `threads` workers taking chunks in order; after `limit` chunks
// (0 = no limit) no new chunk is started. The first exception stops the others and is rethrown.
template <typename Work>
void for_each_chunk_in_parallel(const std::vector<std::uint64_t>& pending, int threads, std::uint64_t limit,
                                Work work) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> tickets{0};
  std::atomic<bool> stop{false};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto worker = [&]() {
    try {
      while (!stop.load()) {
        if (limit > 0 && tickets.fetch_add(1) >= limit) break;
        const std::size_t i = next.fetch_add(1);
        if (i >= pending.size()) break;
        work(pending[i]);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      stop.store(true);
    }
  };
  const std::size_t count = std::clamp<std::size_t>(static_cast<std::size_t>(resolve_thread_count(threads)), 1,
                                                    std::max<std::size_t>(pending.size(), 1));
  if (count == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < count; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

std::vector<RunResult> run_all_runs(const SweepPlan& plan, const std::vector<SpotMarket>& markets, int threads) {
  const SweepExecutor executor(plan, markets);
  std::vector<RunResult> runs(plan.run_count());
  std::vector<std::uint64_t> chunks(plan.chunk_count());
  for (std::uint64_t c = 0; c < chunks.size(); ++c) chunks[c] = c;
  for_each_chunk_in_parallel(chunks, threads, 0, [&](std::uint64_t chunk) {
    const std::vector<RunResult> part = executor.run_range(plan.chunk_begin(chunk), plan.chunk_end(chunk));
    std::copy(part.begin(), part.end(), runs.begin() + static_cast<std::ptrdiff_t>(plan.chunk_begin(chunk)));
  });
  return runs;
}

SweepRunOutcome run_sweep(const SweepPlan& plan, const std::vector<SpotMarket>& markets, const std::string& out_dir,
                          const SweepRunOptions& options) {
  prepare_sweep_directory(out_dir, plan, options.shard, options.resume);
  const ChunkRange range = shard_chunks(plan, options.shard);
  const std::vector<bool> finished = finished_chunks(out_dir, range);

  SweepRunOutcome outcome;
  outcome.chunks_in_shard = range.end - range.first;
  std::vector<std::uint64_t> pending;
  std::uint64_t runs_done = 0;
  for (std::uint64_t chunk = range.first; chunk < range.end; ++chunk) {
    if (finished[chunk - range.first]) {
      ++outcome.chunks_skipped;
      runs_done += plan.chunk_end(chunk) - plan.chunk_begin(chunk);
    } else {
      pending.push_back(chunk);
    }
  }
  const std::uint64_t runs_total =
      range.end > range.first ? plan.chunk_end(range.end - 1) - plan.chunk_begin(range.first) : 0;
  if (options.progress) options.progress(runs_done, runs_total);

  const SweepExecutor executor(plan, markets);
  std::mutex mutex;  // guards runs_done, outcome.chunks_run and the progress callback
  for_each_chunk_in_parallel(pending, options.threads, options.stop_after_chunks, [&](std::uint64_t chunk) {
    const std::vector<RunResult> runs = executor.run_range(plan.chunk_begin(chunk), plan.chunk_end(chunk));
    write_file_atomically(chunk_path(out_dir, chunk), chunk_file_text(plan, chunk, runs));
    std::lock_guard<std::mutex> lock(mutex);
    runs_done += runs.size();
    ++outcome.chunks_run;
    if (options.progress) options.progress(runs_done, runs_total);
  });
  outcome.complete = outcome.chunks_skipped + outcome.chunks_run == outcome.chunks_in_shard;
  return outcome;
}

}  // namespace spotsim

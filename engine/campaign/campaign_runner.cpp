#include "engine/campaign/campaign_runner.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>

#include "base/parallel_workers.hpp"
#include "engine/campaign/campaign_simulation.hpp"

namespace spotsim {

void run_campaign(const SpotMarket& market, const CampaignSpec& spec, const PolicyFactories& policies,
                  const ReplicationPlan& plan, TraceStart start, bool keep_job_runs, const CampaignRunSink& in_order) {
  validate_campaign(spec, "campaign");
  const auto threads = static_cast<std::size_t>(std::clamp<std::uint64_t>(
      static_cast<std::uint64_t>(resolve_thread_count(plan.threads)), 1, std::max<std::uint64_t>(plan.count, 1)));
  constexpr std::uint64_t kChunk = 8;  // a campaign replication is long: small chunks balance the threads
  // Runs finished ahead of the next one to hand over wait here; a worker about to start a run further than `window`
  // ahead waits instead, so at most `window` runs are held. No deadlock: the run to hand over next is always the one
  // its worker is running (chunks are taken in order and run in order), and that worker never waits.
  const std::uint64_t window = 2 * kChunk * threads;
  std::mutex mutex;
  std::condition_variable handed_over;
  std::map<std::uint64_t, CampaignRun> waiting;
  std::uint64_t next_out = 0;
  bool stopping = false;
  std::atomic<std::uint64_t> next{0};
  auto worker = [&]() {
    CampaignSimulation simulation(market, spec, policies, start);
    simulation.keep_job_runs(keep_job_runs);
    // Progress counts jobs (replications x jobs): a replication of thousands of jobs takes seconds to minutes.
    if (plan.progress) simulation.count_jobs_in(&plan.progress->done);
    for (;;) {
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= plan.count) break;
      const std::uint64_t end = std::min(begin + kChunk, plan.count);
      for (std::uint64_t i = begin; i < end; ++i) {
        {
          std::unique_lock<std::mutex> lock(mutex);
          handed_over.wait(lock, [&] { return stopping || i < next_out + window; });
          if (stopping) return;
        }
        CampaignRun run = simulation.run(plan.seed, plan.first_replication + i);
        std::unique_lock<std::mutex> lock(mutex);
        if (stopping) return;
        if (i != next_out) {
          waiting.emplace(i, std::move(run));
          continue;
        }
        // This thread hands over its run and every waiting one that follows it, under the lock: one at a time,
        // in order. (A sink that throws stops the others through run_workers.)
        in_order(std::move(run));
        ++next_out;
        for (auto it = waiting.find(next_out); it != waiting.end(); it = waiting.find(next_out)) {
          in_order(std::move(it->second));
          waiting.erase(it);
          ++next_out;
        }
        handed_over.notify_all();
      }
    }
  };
  run_workers(threads, worker, [&] {
    next.store(plan.count);
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    handed_over.notify_all();
  });
}

std::vector<CampaignRun> run_campaign(const SpotMarket& market, const CampaignSpec& spec,
                                      const PolicyFactories& policies, const ReplicationPlan& plan, TraceStart start) {
  std::vector<CampaignRun> runs;
  runs.reserve(plan.count);
  run_campaign(market, spec, policies, plan, start, /*keep_job_runs=*/true,
               [&](CampaignRun&& run) { runs.push_back(std::move(run)); });
  return runs;
}

}  // namespace spotsim

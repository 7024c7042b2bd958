#include "sim/campaign/campaign_runner.hpp"

#include <algorithm>
#include <atomic>

#include "sim/campaign/campaign_simulation.hpp"
#include "sim/parallel_workers.hpp"

namespace spotsim {

std::vector<CampaignRun> run_campaign(const SpotMarket& market, const CampaignSpec& spec,
                                      const PolicyFactories& policies, const ReplicationPlan& plan, TraceStart start) {
  validate_campaign(spec, "campaign");
  std::vector<CampaignRun> runs(plan.count);
  const auto threads = static_cast<std::size_t>(std::clamp<std::uint64_t>(
      static_cast<std::uint64_t>(resolve_thread_count(plan.threads)), 1, std::max<std::uint64_t>(plan.count, 1)));
  constexpr std::uint64_t kChunk = 8;  // a campaign replication is long: small chunks balance the threads
  std::atomic<std::uint64_t> next{0};
  auto worker = [&]() {
    CampaignSimulation simulation(market, spec, policies, start);
    // Progress counts jobs (replications x jobs): a replication of thousands of jobs takes seconds to minutes.
    if (plan.progress) simulation.count_jobs_in(&plan.progress->done);
    for (;;) {
      const std::uint64_t begin = next.fetch_add(kChunk);
      if (begin >= plan.count) break;
      const std::uint64_t end = std::min(begin + kChunk, plan.count);
      for (std::uint64_t i = begin; i < end; ++i) runs[i] = simulation.run(plan.seed, plan.first_replication + i);
    }
  };
  run_workers(threads, worker, [&] { next.store(plan.count); });
  return runs;
}

CampaignSummary summarize_campaign(const std::vector<CampaignRun>& runs, double confidence) {
  CampaignSummary s;
  s.replications = runs.size();
  if (runs.empty()) return s;
  const auto of = [&](auto field) {
    std::vector<double> values;
    values.reserve(runs.size());
    for (const CampaignRun& r : runs) values.push_back(static_cast<double>(field(r)));
    return summarize(values, confidence);
  };
  s.makespan_hours = of([](const CampaignRun& r) { return r.makespan_hours; });
  s.cost_total = of([](const CampaignRun& r) { return r.cost_total; });
  s.cost_spot = of([](const CampaignRun& r) { return r.cost_spot; });
  s.cost_on_demand = of([](const CampaignRun& r) { return r.cost_on_demand; });
  s.cost_egress = of([](const CampaignRun& r) { return r.cost_egress; });
  s.cost_idle = of([](const CampaignRun& r) { return r.cost_idle; });
  s.cost_lost_work = of([](const CampaignRun& r) { return r.cost_lost_work; });
  s.completed = of([](const CampaignRun& r) { return r.completed; });
  s.stopped_early = of([](const CampaignRun& r) { return r.stopped_early; });
  s.failed = of([](const CampaignRun& r) { return r.failed; });
  s.preemptions = of([](const CampaignRun& r) { return r.preemptions; });
  s.capacity_reclaims = of([](const CampaignRun& r) { return r.capacity_reclaims; });
  s.capacity_utilisation = of([](const CampaignRun& r) { return r.capacity_utilisation(); });
  const double n = static_cast<double>(runs.size());
  const auto share = [&](auto field) {  // a count over n: never above 1 by rounding
    return static_cast<double>(std::count_if(runs.begin(), runs.end(), field)) / n;
  };
  s.p_all_done = share([](const CampaignRun& r) { return r.all_done; });
  s.p_deadline_met = share([](const CampaignRun& r) { return r.deadline_met; });
  s.p_budget_exhausted = share([](const CampaignRun& r) { return r.budget_exhausted; });
  const std::size_t jobs = runs.front().jobs.size();
  s.job_completed_share.assign(jobs, 0.0);
  s.job_stopped_share.assign(jobs, 0.0);
  for (std::size_t j = 0; j < jobs; ++j) {
    s.job_finish_hours.push_back(of([j](const CampaignRun& r) { return r.jobs[j].finish_hours; }));
    s.job_completed_share[j] = share([j](const CampaignRun& r) { return r.jobs[j].status == JobStatus::kCompleted; });
    s.job_stopped_share[j] = share([j](const CampaignRun& r) { return r.jobs[j].status == JobStatus::kStoppedEarly; });
  }
  std::size_t hours = 0;
  for (const CampaignRun& r : runs) hours = std::max(hours, r.held_by_hour.size());
  s.held_by_hour.assign(hours, 0.0);
  s.capacity_by_hour.assign(hours, 0.0);
  for (const CampaignRun& r : runs) {
    for (std::size_t h = 0; h < r.held_by_hour.size(); ++h) s.held_by_hour[h] += r.held_by_hour[h] / n;
    for (std::size_t h = 0; h < r.capacity_by_hour.size(); ++h) s.capacity_by_hour[h] += r.capacity_by_hour[h] / n;
  }
  return s;
}

}  // namespace spotsim

#pragma once
// Many replications of a campaign on a pool of threads, and their summary. Replication r always uses the streams
// keyed by r and lands at index r: the output is bit-identical for any number of threads.
#include <vector>

#include "sim/campaign/campaign_result.hpp"
#include "sim/campaign/campaign_spec.hpp"
#include "sim/replication_runner.hpp"
#include "sim/statistics.hpp"

namespace spotsim {

// plan.progress, when given, counts jobs: replications x spec.jobs.size() in all.
std::vector<CampaignRun> run_campaign(const SpotMarket& market, const CampaignSpec& spec,
                                      const PolicyFactories& policies, const ReplicationPlan& plan,
                                      TraceStart start = {});

struct CampaignSummary {
  std::size_t replications = 0;
  Summary makespan_hours, cost_total, cost_spot, cost_on_demand, cost_egress, cost_idle, cost_lost_work;
  Summary completed, stopped_early, failed, preemptions, capacity_reclaims, capacity_utilisation;
  double p_all_done = 0.0;      // fraction of replications in which no job failed
  double p_deadline_met = 0.0;  // ... and every job met its deadline
  double p_budget_exhausted = 0.0;
  std::vector<Summary> job_finish_hours;  // per job
  std::vector<double> job_completed_share, job_stopped_share;
  std::vector<double> held_by_hour, capacity_by_hour;  // means over replications (hours past a run's end: 0)
};

CampaignSummary summarize_campaign(const std::vector<CampaignRun>& runs, double confidence = 0.95);

}  // namespace spotsim

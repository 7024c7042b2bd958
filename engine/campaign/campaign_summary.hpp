#pragma once
// The summary of a campaign's replications (docs/campaign.md#outputs), built one replication at a time so that a
// campaign's memory does not grow with jobs x replications: the per-job figures are running moments, and only the
// campaign-wide scalars (a few dozen numbers per replication) are kept for their quantiles.
#include <cstddef>
#include <vector>

#include "base/statistics.hpp"
#include "engine/campaign/campaign_result.hpp"

namespace spotsim {

// A job's finish time over the replications: moments, extremes and the interval of the mean (no quantiles: they
// would need every replication's value of every job).
struct JobFinishSummary {
  std::size_t n = 0;
  double mean = 0.0, sd = 0.0, min = 0.0, max = 0.0, ci_low = 0.0, ci_high = 0.0;
};

struct CampaignSummary {
  std::size_t replications = 0;
  Summary makespan_hours, cost_total, cost_spot, cost_on_demand, cost_egress, cost_idle, cost_lost_work;
  Summary completed, stopped_early, failed, preemptions, capacity_reclaims, capacity_utilisation;
  double p_all_done = 0.0;      // fraction of replications in which no job failed
  double p_deadline_met = 0.0;  // ... and every job met its deadline
  double p_budget_exhausted = 0.0;
  std::vector<JobFinishSummary> job_finish_hours;  // per job
  std::vector<double> job_completed_share, job_stopped_share;
  std::vector<double> held_by_hour, capacity_by_hour;  // means over replications (hours past a run's end: 0)
};

// Replications are added in replication order (the sums then do not depend on the thread count). A run's job
// outcomes may come with it (add) or job by job (add_job, each job's in replication order, then add_run with the
// run's jobs left empty), as the managed rows produce them.
class CampaignSummaryBuilder {
 public:
  CampaignSummaryBuilder(std::size_t jobs, std::size_t replications, double confidence = 0.95);

  void add(const CampaignRun& run);
  void add_job(std::size_t job, const CampaignJobOutcome& outcome);
  void add_run(const CampaignRun& run);  // the campaign-wide figures only; run.jobs is not read
  CampaignSummary finish() const;

 private:
  struct JobAccumulator {
    RunningMoments finish;
    double min = 0.0, max = 0.0;
    std::size_t completed = 0, stopped = 0;
  };
  struct RunFigures {  // what the campaign-wide summaries need of one replication
    double makespan, cost_total, cost_spot, cost_on_demand, cost_egress, cost_idle, cost_lost_work;
    double completed, stopped_early, failed, preemptions, capacity_reclaims, capacity_utilisation;
    bool all_done, deadline_met, budget_exhausted;
  };
  std::size_t replications_;
  double confidence_;
  std::vector<JobAccumulator> jobs_;
  std::vector<RunFigures> runs_;
  std::vector<double> held_by_hour_, capacity_by_hour_;  // running means over the replications, hour by hour
};

CampaignSummary summarize_campaign(const std::vector<CampaignRun>& runs, double confidence = 0.95);

}  // namespace spotsim

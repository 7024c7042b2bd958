#pragma once
// The summary of a campaign's replications (docs/campaign.md#outputs), built one replication at a time so that a
// campaign's memory does not grow with jobs x replications: the per-job figures are running moments, and only the
// campaign-wide scalars (a few dozen numbers per replication, and four per job group) are kept for their intervals.
#include <cstddef>
#include <vector>

#include "base/statistics.hpp"
#include "engine/campaign/campaign_result.hpp"
#include "model/campaign_spec.hpp"

namespace spotsim {

// A job's finish time over the replications: moments, extremes and the interval of the mean (no quantiles: they
// would need every replication's value of every job).
struct JobFinishSummary {
  std::size_t n = 0;
  double mean = 0.0, sd = 0.0, min = 0.0, max = 0.0, ci_low = 0.0, ci_high = 0.0;
};

// A job as its user sees it (docs/campaign.md#by-job-size), over the replications: turnaround = its end - its
// arrival (whatever the end: completed, stopped early, gave up or stopped by the budget), slowdown = turnaround /
// work (1: ran at once, never waited or lost work), its own bill, and the share of replications in which it met its
// deadline (no deadline: it ended done).
struct JobTurnaroundSummary {
  Summary turnaround_hours;  // moments and interval only (no quantiles)
  double slowdown = 0.0, cost = 0.0, deadline_met_share = 0.0;
};

// The jobs of one group (e.g. one size), replication by replication: each replication's mean over the group's jobs,
// then the mean and interval of those means over the replications.
struct JobGroupSummary {
  std::size_t jobs = 0;
  Summary turnaround_hours, slowdown, cost, deadline_met;  // deadline_met: the share of the group's jobs
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
  std::vector<JobTurnaroundSummary> job_turnaround;    // per job
  std::vector<JobGroupSummary> job_groups;             // per group given to the builder
  std::vector<double> held_by_hour, capacity_by_hour;  // means over replications (hours past a run's end: 0)
};

// Replications are added in replication order (the sums then do not depend on the thread count). A run's job
// outcomes may come with it (add) or job by job (add_job, each job's in replication order, then add_run with the
// run's jobs left empty), as the managed rows produce them.
class CampaignSummaryBuilder {
 public:
  // `group_of_job[j]`: job j's group (groups 0 .. max); empty: one group of every job.
  CampaignSummaryBuilder(const CampaignSpec& spec, std::vector<std::size_t> group_of_job, std::size_t replications,
                         double confidence = 0.95);

  void add(const CampaignRun& run);
  void add_job(std::size_t job, const CampaignJobOutcome& outcome);
  void add_run(const CampaignRun& run);  // the campaign-wide figures only; run.jobs is not read
  CampaignSummary finish() const;

 private:
  struct JobAccumulator {
    double arrival_hours = 0.0, work_hours = 0.0;
    std::size_t group = 0;
    RunningMoments finish, turnaround;
    double min = 0.0, max = 0.0, slowdown_sum = 0.0, cost_sum = 0.0;
    std::size_t completed = 0, stopped = 0, deadline_met = 0;
  };
  struct RunFigures {  // what the campaign-wide summaries need of one replication
    double makespan, cost_total, cost_spot, cost_on_demand, cost_egress, cost_idle, cost_lost_work;
    double completed, stopped_early, failed, preemptions, capacity_reclaims, capacity_utilisation;
    bool all_done, deadline_met, budget_exhausted;
  };
  struct GroupFigures {  // sums over a group's jobs in one replication
    double turnaround = 0.0, slowdown = 0.0, cost = 0.0, deadline_met = 0.0;
  };
  std::size_t replications_;
  double confidence_;
  std::vector<JobAccumulator> jobs_;
  std::vector<std::size_t> group_sizes_;
  std::vector<GroupFigures> group_runs_;  // [replication * groups + group]
  std::vector<RunFigures> runs_;
  std::vector<double> held_by_hour_, capacity_by_hour_;  // running means over the replications, hour by hour
};

// Every run's jobs in one group.
CampaignSummary summarize_campaign(const CampaignSpec& spec, const std::vector<CampaignRun>& runs,
                                   double confidence = 0.95);

}  // namespace spotsim

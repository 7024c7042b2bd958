#include "engine/campaign/campaign_summary.hpp"

#include <algorithm>

namespace spotsim {

namespace {

// sums[h] += values[h] / n, growing `sums` with zeros to the longer length.
void add_divided(std::vector<double>& sums, const std::vector<double>& values, double n) {
  if (sums.size() < values.size()) sums.resize(values.size(), 0.0);
  for (std::size_t h = 0; h < values.size(); ++h) sums[h] += values[h] / n;
}

}  // namespace

CampaignSummaryBuilder::CampaignSummaryBuilder(const CampaignSpec& spec, std::vector<std::size_t> group_of_job,
                                               std::size_t replications, double confidence)
    : replications_(replications), confidence_(confidence), jobs_(spec.jobs.size()) {
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    JobAccumulator& a = jobs_[j];
    a.arrival_hours = to_hours(spec.jobs[j].arrival);
    a.work_hours = to_hours(spec.jobs[j].job.work);
    a.group = group_of_job.empty() ? 0 : group_of_job.at(j);
    if (group_sizes_.size() <= a.group) group_sizes_.resize(a.group + 1, 0);
    ++group_sizes_[a.group];
  }
  runs_.reserve(replications);
  group_runs_.reserve(replications * group_sizes_.size());
}

void CampaignSummaryBuilder::add(const CampaignRun& run) {
  for (std::size_t j = 0; j < run.jobs.size(); ++j) add_job(j, run.jobs[j]);
  add_run(run);
}

void CampaignSummaryBuilder::add_job(std::size_t job, const CampaignJobOutcome& outcome) {
  JobAccumulator& a = jobs_.at(job);
  // Each job's outcomes come in replication order, so the count so far is this one's replication.
  const std::size_t replication = a.finish.n;
  const double v = outcome.finish_hours;
  a.min = a.finish.n == 0 ? v : std::min(a.min, v);
  a.max = a.finish.n == 0 ? v : std::max(a.max, v);
  a.finish.add(v);
  a.completed += outcome.status == JobStatus::kCompleted;
  a.stopped += outcome.status == JobStatus::kStoppedEarly;
  const double turnaround = v - a.arrival_hours;
  const double slowdown = turnaround / a.work_hours;  // work > 0 (validate_campaign)
  a.turnaround.add(turnaround);
  a.slowdown_sum += slowdown;
  a.cost_sum += outcome.cost;
  a.deadline_met += outcome.deadline_met;
  const std::size_t groups = group_sizes_.size();
  if (group_runs_.size() < (replication + 1) * groups) group_runs_.resize((replication + 1) * groups);
  GroupFigures& g = group_runs_[replication * groups + a.group];
  g.turnaround += turnaround;
  g.slowdown += slowdown;
  g.cost += outcome.cost;
  g.deadline_met += outcome.deadline_met ? 1.0 : 0.0;
}

void CampaignSummaryBuilder::add_run(const CampaignRun& r) {
  runs_.push_back(RunFigures{r.makespan_hours, r.cost_total, r.cost_spot, r.cost_on_demand, r.cost_egress, r.cost_idle,
                             r.cost_lost_work, static_cast<double>(r.completed), static_cast<double>(r.stopped_early),
                             static_cast<double>(r.failed), static_cast<double>(r.preemptions),
                             static_cast<double>(r.capacity_reclaims), r.capacity_utilisation(), r.all_done,
                             r.deadline_met, r.budget_exhausted});
  // Each run's hourly means enter divided by the replication count, in replication order (hours past a run's end
  // count as 0).
  const double n = static_cast<double>(replications_);
  add_divided(held_by_hour_, r.held_by_hour, n);
  add_divided(capacity_by_hour_, r.capacity_by_hour, n);
}

CampaignSummary CampaignSummaryBuilder::finish() const {
  CampaignSummary s;
  s.replications = runs_.size();
  if (runs_.empty()) return s;
  const auto of = [&](double RunFigures::*field) {
    std::vector<double> values;
    values.reserve(runs_.size());
    for (const RunFigures& r : runs_) values.push_back(r.*field);
    return summarize(values, confidence_);
  };
  s.makespan_hours = of(&RunFigures::makespan);
  s.cost_total = of(&RunFigures::cost_total);
  s.cost_spot = of(&RunFigures::cost_spot);
  s.cost_on_demand = of(&RunFigures::cost_on_demand);
  s.cost_egress = of(&RunFigures::cost_egress);
  s.cost_idle = of(&RunFigures::cost_idle);
  s.cost_lost_work = of(&RunFigures::cost_lost_work);
  s.completed = of(&RunFigures::completed);
  s.stopped_early = of(&RunFigures::stopped_early);
  s.failed = of(&RunFigures::failed);
  s.preemptions = of(&RunFigures::preemptions);
  s.capacity_reclaims = of(&RunFigures::capacity_reclaims);
  s.capacity_utilisation = of(&RunFigures::capacity_utilisation);
  const double n = static_cast<double>(runs_.size());
  const auto share = [&](bool RunFigures::*field) {  // a count over n: never above 1 by rounding
    return static_cast<double>(
               std::count_if(runs_.begin(), runs_.end(), [&](const RunFigures& r) { return r.*field; })) /
           n;
  };
  s.p_all_done = share(&RunFigures::all_done);
  s.p_deadline_met = share(&RunFigures::deadline_met);
  s.p_budget_exhausted = share(&RunFigures::budget_exhausted);
  for (const JobAccumulator& a : jobs_) {
    Summary moments;
    apply_moments(a.finish, confidence_, moments);
    s.job_finish_hours.push_back(
        JobFinishSummary{moments.n, moments.mean, moments.sd, a.min, a.max, moments.ci_low, moments.ci_high});
    s.job_completed_share.push_back(static_cast<double>(a.completed) / n);
    s.job_stopped_share.push_back(static_cast<double>(a.stopped) / n);
    JobTurnaroundSummary t;
    apply_moments(a.turnaround, confidence_, t.turnaround_hours);
    const double runs = static_cast<double>(std::max<std::size_t>(a.turnaround.n, 1));
    t.slowdown = a.slowdown_sum / runs;
    t.cost = a.cost_sum / runs;
    t.deadline_met_share = static_cast<double>(a.deadline_met) / runs;
    s.job_turnaround.push_back(t);
  }
  // Per group: each replication's mean over the group's jobs, summarised over the replications.
  const std::size_t groups = group_sizes_.size();
  const std::size_t group_replications = groups == 0 ? 0 : group_runs_.size() / groups;
  for (std::size_t g = 0; g < groups && group_replications > 0; ++g) {
    const double size = static_cast<double>(group_sizes_[g]);
    const auto over_runs = [&](double GroupFigures::*field) {
      std::vector<double> means(group_replications);
      for (std::size_t r = 0; r < group_replications; ++r) means[r] = group_runs_[r * groups + g].*field / size;
      return summarize(means, confidence_);
    };
    s.job_groups.push_back(JobGroupSummary{group_sizes_[g], over_runs(&GroupFigures::turnaround),
                                           over_runs(&GroupFigures::slowdown), over_runs(&GroupFigures::cost),
                                           over_runs(&GroupFigures::deadline_met)});
  }
  s.held_by_hour = held_by_hour_;
  s.capacity_by_hour = capacity_by_hour_;
  return s;
}

CampaignSummary summarize_campaign(const CampaignSpec& spec, const std::vector<CampaignRun>& runs, double confidence) {
  CampaignSummaryBuilder builder(spec, {}, runs.size(), confidence);
  for (const CampaignRun& run : runs) builder.add(run);
  return builder.finish();
}

}  // namespace spotsim

#include "model/campaign_spec.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "model/random_streams.hpp"

namespace spotsim {

EarlyStopping successive_halving(double eta, double min_fraction) {
  EarlyStopping out;
  if (!(eta > 1.0) || !(min_fraction > 0.0) || !(min_fraction < 1.0)) return out;
  out.keep_fraction = 1.0 / eta;
  // Compare with a relative margin so that 1/9 * 3 * 3 counts as reaching 1, not as a rung just below it.
  for (double f = min_fraction; f < 1.0 - 1e-9; f *= eta) out.rungs.push_back(f);
  return out;
}

void validate_campaign(const CampaignSpec& spec, const std::string& where) {
  if (spec.jobs.empty()) throw InputError(where + ": a campaign needs at least one job");
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const CampaignJob& job = spec.jobs[j];
    const std::string at = where + ": job " + std::to_string(j + 1) + (job.name.empty() ? "" : " '" + job.name + "'");
    if (job.arrival < 0) throw InputError(at + ": field 'arrival': expected a time >= 0");
    if (job.job.elastic.active() && spec.early_stopping.enabled()) {
      throw InputError(at + ": early stopping (--halving) is not built for elastic jobs (min_nodes)");
    }
    if (job.job.elastic.active() && spec.cant_be_late_mode) {
      throw InputError(at + ": elastic jobs (min_nodes) run in the elastic engine, not in the Can't Be Late mode");
    }
    validate_job(job.job, at);
    if (!std::isnan(job.scaling_efficiency) && !(job.scaling_efficiency > 0.0 && job.scaling_efficiency <= 1.0)) {
      throw InputError(at + ": scaling efficiency " + std::to_string(job.scaling_efficiency) +
                       ": expected a number in (0, 1]");
    }
    if (!std::isnan(job.score) && !std::isfinite(job.score))
      throw InputError(at + ": field 'score': expected a finite number");
  }
  const auto& rungs = spec.early_stopping.rungs;
  for (std::size_t r = 0; r < rungs.size(); ++r) {
    if (!(rungs[r] > 0.0 && rungs[r] < 1.0) || (r > 0 && !(rungs[r] > rungs[r - 1]))) {
      throw InputError(where + ": early stopping: rungs must be increasing fractions of the work in (0, 1)");
    }
  }
  const double keep = spec.early_stopping.keep_fraction;
  if (!(keep > 0.0 && keep <= 1.0)) throw InputError(where + ": early stopping: the kept fraction must be in (0, 1]");
  if (!(spec.budget_usd > 0.0) || (std::isfinite(spec.budget_usd) && spec.budget_usd > kMaxBudgetUsd)) {
    throw InputError(where + ": field 'budget': expected a positive amount of USD, at most 1e15");
  }
  if (spec.deadline != kNever && spec.deadline <= 0)
    throw InputError(where + ": field 'deadline': expected a positive duration");
  if (spec.tick < 0 || (spec.tick > 0 && !spec.cant_be_late_mode)) {
    throw InputError(where + ": field 'tick': expected a positive duration, and only in the Can't Be Late mode");
  }
}

Millis campaign_job_deadline(const CampaignSpec& spec, const CampaignJob& job) {
  Millis deadline = job.job.deadline;
  if (spec.deadline != kNever) deadline = std::min(deadline, std::max<Millis>(spec.deadline - job.arrival, 0));
  return deadline;
}

double campaign_job_efficiency(const CampaignSpec& spec, const CampaignJob& job, int instances) {
  if (!std::isnan(job.scaling_efficiency)) return job.scaling_efficiency;
  return instances > 1 && job.job.elastic.min_nodes == 0 ? spec.cross_instance_efficiency : 1.0;
}

JobSpec campaign_job_work(const CampaignSpec& spec, const CampaignJob& campaign_job, int instances) {
  JobSpec job = campaign_job.job;
  const double efficiency = campaign_job_efficiency(spec, campaign_job, instances);
  if (efficiency < 1.0) {
    job.work = std::max<Millis>(1, static_cast<Millis>(std::llround(static_cast<double>(job.work) / efficiency)));
  }
  return job;
}

std::uint64_t campaign_job_seed(std::uint64_t seed, std::size_t job) {
  return job == 0 ? seed : stream_seed(seed, 0, StreamPurpose::kCampaignJob, job);
}

const char* scheduling_rule_name(SchedulingRule rule) {
  switch (rule) {
    case SchedulingRule::kFifo: return "fifo";
    case SchedulingRule::kPriority: return "priority";
    case SchedulingRule::kEarliestDeadline: return "earliest-deadline";
    case SchedulingRule::kShortestFirst: return "shortest-first";
  }
  return "?";
}

const char* reclaim_rule_name(ReclaimRule rule) { return rule == ReclaimRule::kRandom ? "random" : "newest-first"; }

}  // namespace spotsim

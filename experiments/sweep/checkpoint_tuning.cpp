#include "experiments/sweep/checkpoint_tuning.hpp"

#include <cmath>

#include "experiments/sweep/configuration_samples.hpp"
#include "policies/checkpoint_math.hpp"

namespace spotsim {

std::vector<CheckpointTuning> tune_checkpoint_intervals(const SweepPlan& plan, const std::vector<RunResult>& runs) {
  std::vector<CheckpointTuning> out;
  const ExperimentSpec& spec = plan.spec;
  const std::size_t intervals = spec.checkpoint_intervals.size();
  if (intervals < 2) return out;
  const std::size_t metric = metric_index(spec.tuning_metric, "tuning_metric");
  const double sign = metric_higher_is_better(spec.tuning_metric) ? -1.0 : 1.0;  // compare as "lower is better"
  const std::size_t checkpoints = spec.checkpoints.size();
  const std::size_t first_fixed = checkpoints - intervals;  // generated specs follow the explicit ones

  for (const Configuration& group : plan.configurations) {
    if (group.checkpoint != 0) continue;  // one pass per (trace, job, policy): its first configuration
    const std::size_t base = group.index;  // configurations of the group are base .. base + checkpoints - 1
    CheckpointTuning tuning;
    tuning.trace = group.trace;
    tuning.job = group.job;
    tuning.policy = group.policy;
    std::vector<Summary> means;
    std::size_t best = 0;
    for (std::size_t i = 0; i < intervals; ++i) {
      means.push_back(summarize(metric_values(plan, runs, base + first_fixed + i, metric)));
      if (sign * means[i].mean < sign * means[best].mean) best = i;
    }
    tuning.best_configuration = base + first_fixed + best;
    tuning.best_interval = spec.checkpoint_intervals[best];
    tuning.best_metric = means[best];
    tuning.plausible_low = tuning.plausible_high = tuning.best_interval;
    for (std::size_t i = 0; i < intervals; ++i) {
      const Summary d = paired_difference(plan, runs, base + first_fixed + i, tuning.best_configuration, metric);
      // Worse means a larger signed difference; "not significantly worse": the interval's better end reaches 0.
      const double better_end = sign > 0 ? d.ci_low : -d.ci_high;
      if (i == best || !(better_end > 0.0)) {
        tuning.plausible_low = std::min(tuning.plausible_low, spec.checkpoint_intervals[i]);
        tuning.plausible_high = std::max(tuning.plausible_high, spec.checkpoint_intervals[i]);
      }
    }
    const double mtbf = plan.traces[group.trace].spot_mtbf_hours[group.job];
    if (mtbf > 0) {
      const double delta = to_hours(spec.jobs[group.job].job.checkpoint_write);
      tuning.young_interval_hours = young_interval(delta, mtbf);
      tuning.daly_interval_hours = daly_interval(delta, mtbf);
    }
    for (std::size_t c = 0; c < first_fixed; ++c) {
      tuning.references.push_back(TuningReference{
          base + c, summarize(metric_values(plan, runs, base + c, metric)),
          paired_difference(plan, runs, base + c, tuning.best_configuration, metric)});
    }
    out.push_back(std::move(tuning));
  }
  return out;
}

}  // namespace spotsim

#include "app/sweep/checkpoint_tuning.hpp"

#include <algorithm>
#include <cassert>

#include "app/sweep/configuration_samples.hpp"
#include "policies/checkpoint_math.hpp"

namespace spotsim {

CheckpointTuning tune_checkpoint_interval(const SweepPlan& plan, const Configuration& first,
                                          const std::vector<std::vector<double>>& values) {
  const ExperimentSpec& spec = plan.spec;
  const std::size_t intervals = spec.checkpoint_intervals.size();
  assert(intervals >= 2 && first.checkpoint == 0 && values.size() == spec.checkpoints.size());
  const double sign = metric_higher_is_better(spec.tuning_metric) ? -1.0 : 1.0;  // compare as "lower is better"
  const std::size_t first_fixed = spec.checkpoints.size() - intervals;  // generated specs follow the explicit ones
  const std::size_t base = first.index;  // configurations of the group are base .. base + checkpoints - 1

  CheckpointTuning tuning;
  tuning.trace = first.trace;
  tuning.job = first.job;
  tuning.policy = first.policy;
  std::vector<Summary> means;
  std::size_t best = 0;
  for (std::size_t i = 0; i < intervals; ++i) {
    means.push_back(summarize(values[first_fixed + i]));
    if (sign * means[i].mean < sign * means[best].mean) best = i;
  }
  tuning.best_configuration = base + first_fixed + best;
  tuning.best_interval = spec.checkpoint_intervals[best];
  tuning.best_metric = means[best];
  tuning.plausible_low = tuning.plausible_high = tuning.best_interval;
  const std::vector<double>& best_values = values[first_fixed + best];
  for (std::size_t i = 0; i < intervals; ++i) {
    const Summary d = paired_difference(values[first_fixed + i], best_values);
    // Worse means a larger signed difference; "not significantly worse": the interval's better end reaches 0.
    const double better_end = sign > 0 ? d.ci_low : -d.ci_high;
    if (i == best || !(better_end > 0.0)) {
      tuning.plausible_low = std::min(tuning.plausible_low, spec.checkpoint_intervals[i]);
      tuning.plausible_high = std::max(tuning.plausible_high, spec.checkpoint_intervals[i]);
    }
  }
  const double mtbf = plan.traces[first.trace].spot_mtbf_hours[first.job];
  if (mtbf > 0) {
    const double delta = to_hours(spec.jobs[first.job].job.checkpoint_write);
    tuning.young_interval_hours = young_interval(delta, mtbf);
    tuning.daly_interval_hours = daly_interval(delta, mtbf);
  }
  for (std::size_t c = 0; c < first_fixed; ++c) {
    tuning.references.push_back(
        TuningReference{base + c, summarize(values[c]), paired_difference(values[c], best_values)});
  }
  return tuning;
}

}  // namespace spotsim

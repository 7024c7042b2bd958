#pragma once
// Checkpoint-frequency tuning from a sweep over fixed intervals (spec field `checkpoint_intervals`).
//
// For each (trace, job, selection policy) the fixed-interval configurations are compared on the spec's
// `tuning_metric` (lower is better, e.g. cost_total or completion_hours):
//   - the empirically best interval is the one with the best mean, reported with the Student-t 95% interval of
//     that mean;
//   - the interval's own uncertainty is the set of intervals not significantly worse than the best: those whose
//     paired difference to the best has a 95% interval reaching 0 (a paired-t screening in the spirit of
//     Nelson & Matejcik's subset selection, Management Science 41(12), 1995). Its smallest and largest members
//     bracket the optimum;
//   - next to it, every other checkpoint policy of the spec on the same (trace, job, policy) — young, daly,
//     hazard-aware ones — with its mean, interval and paired difference to the best fixed interval, and the
//     Young and Daly intervals computed from the first zone's mean time between preemptions.
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.hpp"
#include "base/statistics.hpp"
#include "base/time.hpp"

namespace spotsim {

struct TuningReference {
  std::size_t configuration = 0;  // a non-fixed checkpoint policy of the same group
  Summary metric;
  Summary difference_to_best;  // reference − best fixed interval, paired
};

struct CheckpointTuning {
  std::size_t trace = 0;
  std::size_t job = 0;
  std::size_t policy = 0;
  std::size_t best_configuration = 0;
  Millis best_interval = 0;
  Summary best_metric;
  Millis plausible_low = 0;            // smallest interval not significantly worse than the best
  Millis plausible_high = 0;           // largest one
  double young_interval_hours = -1.0;  // sqrt(2 delta M) (Young 1974); negative when spot is never preempted
  double daly_interval_hours = -1.0;   // Daly 2006, eq. 37
  std::vector<TuningReference> references;
};

// The tuning of one (trace, job, policy), for specs with at least two fixed intervals. `first` is the group's
// configuration with checkpoint policy 0; values[c] holds the tuning metric of its checkpoint policy c (that is,
// of configuration first.index + c), in replication order.
CheckpointTuning tune_checkpoint_interval(const SweepPlan& plan, const Configuration& first,
                                          const std::vector<std::vector<double>>& values);

}  // namespace spotsim

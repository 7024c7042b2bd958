#pragma once
// What a sweep's runs say, per configuration: every metric's Summary, paired differences against the baseline
// policy, and whether the configuration is on the Pareto frontier of cost vs completion time; plus, where the
// spec sweeps checkpoint intervals, the empirically best interval (checkpoint_tuning.hpp).
//
// Paired differences: configuration c and its baseline b (same trace, job and checkpoint policy, the baseline
// selection policy) share the seed, so replication r of both sees the same preemptions. d_r = x_c,r − x_b,r is
// summarised like any sample: its Student-t interval is much tighter than the difference of two independent
// means because the common noise cancels (common random numbers; Law, Simulation Modeling and Analysis, 5th ed.,
// §11.2, paired-t confidence interval).
//
// Pareto frontier: within each (trace, job) group — comparing policies on the same job and market — over the
// means of (cost_total, completion_hours), and separately over their 95th percentiles.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/sweep/checkpoint_tuning.hpp"
#include "app/sweep/sweep_plan.hpp"
#include "base/statistics.hpp"
#include "model/run_result.hpp"

namespace spotsim {

struct PairedDifference {
  std::size_t baseline_configuration = 0;
  std::vector<Summary> by_metric;  // summaries of x_c,r − x_b,r, one per entry of run_metrics()
};

struct ConfigurationResult {
  std::vector<Summary> summaries;  // one per entry of run_metrics()
  std::optional<PairedDifference> vs_baseline;
  bool pareto_mean = false;
  bool pareto_p95 = false;
};

struct SweepAnalysis {
  std::vector<ConfigurationResult> configurations;
  std::vector<CheckpointTuning> tuning;
};

// The metric values of one configuration: values[m][r] is metric m (run_metrics() order) of replication r.
using ConfigurationValues = std::vector<std::vector<double>>;

// Where the analysis reads the runs from (every run in memory, or the chunk files one at a time).
class ConfigurationSource {
 public:
  virtual ~ConfigurationSource() = default;
  // The configurations in index order, one per call, each exactly once.
  virtual ConfigurationValues next() = 0;
  // Any configuration: the baselines, which can come after the configurations compared with them.
  virtual ConfigurationValues lookup(std::size_t configuration) = 0;
};

// What the runs of one (trace, job) group say: its configurations, first_configuration onwards, and the checkpoint
// tuning of its policies (none without checkpoint_intervals).
struct GroupAnalysis {
  std::size_t first_configuration = 0;
  std::vector<ConfigurationResult> configurations;
  std::vector<CheckpointTuning> tuning;
};

// Analyses the sweep one (trace, job) group after the other, in configuration order, handing each group to
// `emit` as soon as it is done. Everything the analysis compares lies within a group (paired differences,
// Pareto frontiers, checkpoint tuning), so it holds the values of only a few configurations at a time: the one
// being summarised and the baseline policy's configurations of its group (docs/experiments.md#memory).
// Whether the analysis tunes the checkpoint interval: at least two fixed intervals in the spec.
bool sweep_tunes_checkpoints(const SweepPlan& plan);

void analyse_sweep_by_group(const SweepPlan& plan, ConfigurationSource& source,
                            const std::function<void(GroupAnalysis&&)>& emit);

// The same analysis of every run in memory (`runs` in run order), all groups at once.
SweepAnalysis analyse_sweep(const SweepPlan& plan, const std::vector<RunResult>& runs);

}  // namespace spotsim

#include "app/sweep/sweep_analysis.hpp"

#include <utility>

#include "app/run_metrics.hpp"
#include "app/sweep/configuration_samples.hpp"
#include "app/sweep/pareto.hpp"

namespace spotsim {

namespace {

// Pareto frontiers within the group: every configuration of a (trace, job), over means and over 95th percentiles.
void mark_pareto(GroupAnalysis& group) {
  const std::size_t cost = metric_index("cost_total", "pareto");
  const std::size_t time = metric_index("completion_hours", "pareto");
  std::vector<ObjectivePoint> means, p95s;
  for (const ConfigurationResult& r : group.configurations) {
    means.push_back({r.summaries[cost].mean, r.summaries[time].mean});
    p95s.push_back({r.summaries[cost].p95, r.summaries[time].p95});
  }
  const std::vector<bool> on_mean = pareto_frontier(means), on_p95 = pareto_frontier(p95s);
  for (std::size_t k = 0; k < group.configurations.size(); ++k) {
    group.configurations[k].pareto_mean = on_mean[k];
    group.configurations[k].pareto_p95 = on_p95[k];
  }
}

// Every run in memory.
class RunsInMemory final : public ConfigurationSource {
 public:
  RunsInMemory(const SweepPlan& plan, const std::vector<RunResult>& runs) : plan_(plan), runs_(runs) {}
  ConfigurationValues next() override { return lookup(next_++); }
  ConfigurationValues lookup(std::size_t configuration) override {
    ConfigurationValues values;
    for (std::size_t m = 0; m < run_metrics().size(); ++m)
      values.push_back(metric_values(plan_, runs_, configuration, m));
    return values;
  }

 private:
  const SweepPlan& plan_;
  const std::vector<RunResult>& runs_;
  std::size_t next_ = 0;
};

}  // namespace

bool sweep_tunes_checkpoints(const SweepPlan& plan) { return plan.spec.checkpoint_intervals.size() >= 2; }

void analyse_sweep_by_group(const SweepPlan& plan, ConfigurationSource& source,
                            const std::function<void(GroupAnalysis&&)>& emit) {
  const std::size_t metric_count = run_metrics().size();
  const std::size_t policies = plan.spec.policies.size(), checkpoints = plan.spec.checkpoints.size();
  std::size_t baseline_policy = policies;
  for (std::size_t p = 0; p < policies; ++p) {
    if (plan.spec.baseline_policy && plan.spec.policies[p] == *plan.spec.baseline_policy) baseline_policy = p;
  }
  const bool tuning = sweep_tunes_checkpoints(plan);
  const std::size_t tuning_metric = tuning ? metric_index(plan.spec.tuning_metric, "tuning_metric") : 0;
  const std::size_t group_size = policies * checkpoints;

  for (std::size_t base = 0; base < plan.configurations.size(); base += group_size) {
    // Configurations of the group: base + policy · C + checkpoint (the index formula in sweep_plan.hpp). The
    // baseline of (policy, checkpoint) is (baseline policy, checkpoint): same trace, job and checkpoint policy.
    std::vector<ConfigurationValues> baselines;
    if (baseline_policy < policies) {
      for (std::size_t c = 0; c < checkpoints; ++c)
        baselines.push_back(source.lookup(base + baseline_policy * checkpoints + c));
    }
    GroupAnalysis group{base, {}, {}};
    for (std::size_t p = 0; p < policies; ++p) {
      std::vector<std::vector<double>> tuning_values;  // the tuning metric's values, per checkpoint policy
      for (std::size_t c = 0; c < checkpoints; ++c) {
        ConfigurationValues values = source.next();
        ConfigurationResult result;
        for (std::size_t m = 0; m < metric_count; ++m) result.summaries.push_back(summarize(values[m]));
        if (baseline_policy < policies && p != baseline_policy) {
          PairedDifference paired{base + baseline_policy * checkpoints + c, {}};
          for (std::size_t m = 0; m < metric_count; ++m) {
            paired.by_metric.push_back(paired_difference(values[m], baselines[c][m]));
          }
          result.vs_baseline = std::move(paired);
        }
        if (tuning) tuning_values.push_back(std::move(values[tuning_metric]));
        group.configurations.push_back(std::move(result));
      }
      if (tuning)
        group.tuning.push_back(
            tune_checkpoint_interval(plan, plan.configurations[base + p * checkpoints], tuning_values));
    }
    mark_pareto(group);
    emit(std::move(group));
  }
}

SweepAnalysis analyse_sweep(const SweepPlan& plan, const std::vector<RunResult>& runs) {
  SweepAnalysis analysis;
  RunsInMemory source(plan, runs);
  analyse_sweep_by_group(plan, source, [&analysis](GroupAnalysis&& group) {
    for (ConfigurationResult& r : group.configurations) analysis.configurations.push_back(std::move(r));
    for (CheckpointTuning& t : group.tuning) analysis.tuning.push_back(std::move(t));
  });
  return analysis;
}

}  // namespace spotsim

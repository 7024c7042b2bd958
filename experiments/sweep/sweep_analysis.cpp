#include "experiments/sweep/sweep_analysis.hpp"

#include <map>
#include <utility>

#include "experiments/run_metrics.hpp"
#include "experiments/sweep/configuration_samples.hpp"
#include "experiments/sweep/pareto.hpp"

namespace spotsim {

namespace {

void mark_pareto(const SweepPlan& plan, SweepAnalysis& analysis) {
  const std::size_t cost = metric_index("cost_total", "pareto");
  const std::size_t time = metric_index("completion_hours", "pareto");
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> groups;  // (trace, job) -> configurations
  for (const Configuration& c : plan.configurations) groups[{c.trace, c.job}].push_back(c.index);
  for (const auto& [key, members] : groups) {
    std::vector<ObjectivePoint> means, p95s;
    for (const std::size_t i : members) {
      const auto& s = analysis.configurations[i].summaries;
      means.push_back({s[cost].mean, s[time].mean});
      p95s.push_back({s[cost].p95, s[time].p95});
    }
    const std::vector<bool> on_mean = pareto_frontier(means), on_p95 = pareto_frontier(p95s);
    for (std::size_t k = 0; k < members.size(); ++k) {
      analysis.configurations[members[k]].pareto_mean = on_mean[k];
      analysis.configurations[members[k]].pareto_p95 = on_p95[k];
    }
  }
}

}  // namespace

SweepAnalysis analyse_sweep(const SweepPlan& plan, const std::vector<RunResult>& runs) {
  SweepAnalysis analysis;
  const std::size_t metric_count = run_metrics().size();
  std::size_t baseline_policy = plan.spec.policies.size();
  for (std::size_t p = 0; p < plan.spec.policies.size(); ++p) {
    if (plan.spec.baseline_policy && plan.spec.policies[p] == *plan.spec.baseline_policy) baseline_policy = p;
  }
  const std::size_t checkpoints = plan.spec.checkpoints.size();
  for (const Configuration& c : plan.configurations) {
    ConfigurationResult result;
    for (std::size_t m = 0; m < metric_count; ++m) result.summaries.push_back(summarize(metric_values(plan, runs, c.index, m)));
    if (baseline_policy < plan.spec.policies.size() && c.policy != baseline_policy) {
      // Same trace, job and checkpoint policy; only the selection policy differs (see the index formula).
      const std::size_t b = c.index - (c.policy * checkpoints) + baseline_policy * checkpoints;
      PairedDifference paired{b, {}};
      for (std::size_t m = 0; m < metric_count; ++m) paired.by_metric.push_back(paired_difference(plan, runs, c.index, b, m));
      result.vs_baseline = std::move(paired);
    }
    analysis.configurations.push_back(std::move(result));
  }
  mark_pareto(plan, analysis);
  analysis.tuning = tune_checkpoint_intervals(plan, runs);
  return analysis;
}

}  // namespace spotsim

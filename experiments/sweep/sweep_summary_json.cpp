// summary.json of a sweep (see sweep_outputs.hpp; every field in docs/outputs.md#sweep-outputs).
#include "experiments/run_metrics.hpp"
#include "experiments/sweep/sweep_outputs.hpp"
#include "sim/duration.hpp"

namespace spotsim {

namespace {

nlohmann::json full_summary(const Summary& s) {
  return {{"n", s.n},     {"mean", s.mean}, {"sd", s.sd},   {"min", s.min},       {"max", s.max},
          {"p50", s.p50}, {"p95", s.p95},   {"p99", s.p99}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}

nlohmann::json mean_with_interval(const Summary& s) {
  return {{"n", s.n}, {"mean", s.mean}, {"sd", s.sd}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}

nlohmann::json tuning_json(const SweepPlan& plan, const CheckpointTuning& t) {
  auto hours_or_null = [](double h) { return h < 0 ? nlohmann::json(nullptr) : nlohmann::json(h); };
  nlohmann::json references = nlohmann::json::array();
  for (const TuningReference& r : t.references) {
    nlohmann::json ref = mean_with_interval(r.metric);
    ref["configuration"] = r.configuration;
    ref["checkpoint"] = plan.checkpoint_of(plan.configurations[r.configuration]);
    ref["difference_to_best"] = mean_with_interval(r.difference_to_best);
    references.push_back(ref);
  }
  return {{"trace", plan.traces[t.trace].name},
          {"job", plan.spec.jobs[t.job].label},
          {"policy", plan.spec.policies[t.policy]},
          {"metric", plan.spec.tuning_metric},
          {"best_configuration", t.best_configuration},
          {"best_interval", format_duration(t.best_interval)},
          {"best_interval_hours", to_hours(t.best_interval)},
          {"best", mean_with_interval(t.best_metric)},
          {"plausible_interval_hours", {to_hours(t.plausible_low), to_hours(t.plausible_high)}},
          {"young_interval_hours", hours_or_null(t.young_interval_hours)},
          {"daly_interval_hours", hours_or_null(t.daly_interval_hours)},
          {"references", references}};
}

}  // namespace

nlohmann::json sweep_summary_json(const SweepPlan& plan, const SweepAnalysis& analysis) {
  const auto metrics = run_metrics();
  nlohmann::json metric_list = nlohmann::json::array();
  for (const MetricDefinition& m : metrics) metric_list.push_back({{"name", m.name}, {"unit", m.unit}});
  nlohmann::json configurations = nlohmann::json::array();
  for (const Configuration& c : plan.configurations) {
    const ConfigurationResult& result = analysis.configurations[c.index];
    nlohmann::json summary = nlohmann::json::object();
    for (std::size_t m = 0; m < metrics.size(); ++m) summary[metrics[m].name] = full_summary(result.summaries[m]);
    nlohmann::json paired(nullptr);
    if (result.vs_baseline) {
      paired = {{"baseline_configuration", result.vs_baseline->baseline_configuration},
                {"baseline_policy", *plan.spec.baseline_policy}};
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        paired[metrics[m].name] = mean_with_interval(result.vs_baseline->by_metric[m]);
      }
    }
    configurations.push_back({{"configuration", c.index},
                              {"trace", plan.traces[c.trace].name},
                              {"policy", plan.policy_of(c)},
                              {"checkpoint", plan.checkpoint_of(c)},
                              {"job", plan.job_label_of(c)},
                              {"seed", plan.seed_of(c)},
                              {"summary", summary},
                              {"paired_vs_baseline", paired},
                              {"pareto", {{"mean", result.pareto_mean}, {"p95", result.pareto_p95}}}});
  }
  nlohmann::json tuning = nlohmann::json::array();
  for (const CheckpointTuning& t : analysis.tuning) tuning.push_back(tuning_json(plan, t));
  return {{"format", "spotsim-sweep-summary"},
          {"version", 1},
          {"name", plan.spec.name},
          {"spec_hash", plan.spec_hash},
          {"confidence", 0.95},
          {"replications", plan.spec.replications},
          {"baseline_policy", plan.spec.baseline_policy ? nlohmann::json(*plan.spec.baseline_policy) : nlohmann::json(nullptr)},
          {"metrics", metric_list},
          {"configurations", configurations},
          {"checkpoint_tuning", tuning}};
}

}  // namespace spotsim

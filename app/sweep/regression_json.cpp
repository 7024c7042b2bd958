// `spotsim regress --format json`: every comparison and rule check, not only what moved (scripts filter; the text
// table is the view that hides the unchanged). Documented in docs/experiments.md (machine-readable results).
#include "app/sweep/regression_report.hpp"

namespace spotsim {

namespace {

nlohmann::json labels(const ConfigurationLabel& c) {
  return {{"trace", c.trace}, {"job", c.job}, {"policy", c.policy}, {"checkpoint", c.checkpoint}};
}

nlohmann::json mean_record(const MeanRecord& m) { return {{"n", m.n}, {"mean", m.mean}, {"sd", m.sd}}; }

nlohmann::json baseline_json(const BaselineOutcome& b) {
  nlohmann::json j = {{"file", b.file}, {"description", b.description}};
  if (!b.skipped.empty()) {
    j["skipped"] = b.skipped;
    return j;
  }
  j["configurations"] = b.configurations;
  j["replications"] = b.replications;
  j["compared"] = b.comparisons.size();
  j["moved"] = b.moved();
  j["regressed"] = b.count(Verdict::kRegression);
  j["improved"] = b.count(Verdict::kImprovement);
  j["requirements_broken"] = b.broken_requirements();
  j["notes"] = b.notes;
  nlohmann::json comparisons = nlohmann::json::array();
  for (const MetricComparison& c : b.comparisons) {
    nlohmann::json row = labels(c.configuration);
    row["metric"] = c.metric;
    row["verdict"] = verdict_name(c.verdict);
    row["baseline"] = mean_record(c.baseline);
    row["new"] = mean_record(c.fresh);
    row["worse_by"] = c.worse_by;
    row["p_value"] = c.p_value;
    row["threshold"] = c.threshold;
    comparisons.push_back(std::move(row));
  }
  j["comparisons"] = std::move(comparisons);
  nlohmann::json checks = nlohmann::json::array();
  for (const RequirementCheck& c : b.requirement_checks) {
    nlohmann::json row = labels(c.configuration);
    row["requirement"] = c.requirement;
    row["metric"] = c.metric;
    row["new_mean"] = c.mean;
    row["met"] = c.met;
    checks.push_back(std::move(row));
  }
  j["requirement_checks"] = std::move(checks);
  return j;
}

}  // namespace

nlohmann::json regression_json(const RegressionReport& report) {
  nlohmann::json baselines = nlohmann::json::array();
  for (const BaselineOutcome& b : report.baselines) baselines.push_back(baseline_json(b));
  return {{"format", "spotsim-regress"},
          {"version", 1},
          {"rule", {{"alpha", report.rule.alpha}, {"relative", report.rule.relative_threshold}}},
          {"requirements", report.requirements},
          {"substitutions", report.substitutions},
          {"baselines", std::move(baselines)},
          {"regressed", report.regressions()},
          {"requirements_broken", report.broken_requirements()},
          {"passed", report.passed()}};
}

}  // namespace spotsim

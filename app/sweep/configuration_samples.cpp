#include "app/sweep/configuration_samples.hpp"

#include "app/run_metrics.hpp"
#include "base/errors.hpp"

namespace spotsim {

std::size_t metric_index(const std::string& name, const std::string& where) {
  const auto metrics = run_metrics();
  std::string names;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (name == metrics[i].name) return i;
    names += (names.empty() ? "" : ", ") + std::string(metrics[i].name);
  }
  throw InputError(where + ": unknown metric '" + name + "'; expected one of: " + names);
}

bool metric_higher_is_better(const std::string& name) { return name == "completed" || name == "deadline_met"; }

std::vector<double> metric_values(const SweepPlan& plan, const std::vector<RunResult>& runs, std::size_t configuration,
                                  std::size_t metric) {
  const MetricDefinition& definition = run_metrics()[metric];
  const std::uint64_t first = configuration * plan.spec.replications;
  std::vector<double> values;
  values.reserve(plan.spec.replications);
  for (std::uint64_t r = 0; r < plan.spec.replications; ++r) values.push_back(definition.value(runs[first + r]));
  return values;
}

Summary paired_difference(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> diff = a;
  for (std::size_t r = 0; r < diff.size(); ++r) diff[r] -= b[r];
  return summarize(diff);
}

Summary paired_difference(const SweepPlan& plan, const std::vector<RunResult>& runs, std::size_t a, std::size_t b,
                          std::size_t metric) {
  return paired_difference(metric_values(plan, runs, a, metric), metric_values(plan, runs, b, metric));
}

}  // namespace spotsim

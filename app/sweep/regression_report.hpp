#pragma once
// What one `spotsim regress` invocation found, baseline by baseline, and its three renderings: the text table for
// people, JSON for scripts, JUnit XML for the test reports of CI systems (GitLab, Jenkins, GitHub test reporters).
// All three carry the same facts: per (configuration, metric) the baseline and new means, Welch's p-value and the
// practical threshold; per (configuration, --require rule) the new mean and whether it holds; skipped baselines
// with the reason.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/sweep/metric_requirement.hpp"
#include "app/sweep/regression.hpp"

namespace spotsim {

struct RequirementCheck {
  ConfigurationLabel configuration;
  std::string requirement;  // as given, e.g. "deadline_met>=1.0"
  std::string metric;
  double mean = 0.0;  // the re-run's mean of `metric`
  bool met = true;
};

struct BaselineOutcome {
  std::string file;
  std::string description;
  std::string skipped;  // why the baseline was not re-run (--substitute matched none of its policies); empty if run
  std::size_t configurations = 0;
  std::uint64_t replications = 0;
  std::vector<MetricComparison> comparisons;
  std::vector<RequirementCheck> requirement_checks;
  std::vector<std::string> notes;  // e.g. a plugin whose contents changed since the baseline (baseline_plugins.hpp)

  std::size_t count(Verdict verdict) const;
  std::size_t moved() const { return comparisons.size() - count(Verdict::kUnchanged); }
  std::size_t broken_requirements() const;
};

struct RegressionReport {
  RegressionRule rule;
  std::vector<std::string> requirements;   // --require, as given
  std::vector<std::string> substitutions;  // --substitute, as given
  std::vector<BaselineOutcome> baselines;

  std::size_t regressions() const;
  std::size_t broken_requirements() const;
  bool passed() const { return regressions() == 0 && broken_requirements() == 0; }
};

// The rule checks of one configuration's re-run means (`fresh.metrics` holds every required metric).
std::vector<RequirementCheck> check_requirements(const BaselineEntry& fresh,
                                                 const std::vector<MetricRequirement>& requirements);

// The summary line and the table of what moved (every row when `all`) and of broken rules; columns as wide as
// their longest entry, so no name is ever cut.
std::string baseline_text(const BaselineOutcome& outcome, bool all);
std::string regression_text(const RegressionReport& report, bool all);
nlohmann::json regression_json(const RegressionReport& report);
std::string regression_junit(const RegressionReport& report);

// Text safe inside an XML attribute or element: escape_markup() (base/text_escape.hpp) with ' as &apos;.
std::string xml_escape(const std::string& text);

}  // namespace spotsim

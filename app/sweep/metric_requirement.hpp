#pragma once
// Hard rules of `spotsim regress --require`: "deadline_met>=1.0" must hold for the re-run mean of every
// configuration, whatever the noise rule says. The noise rule (regression.hpp) lets a drop of deadline_met from
// 1.000 to 0.983 pass as Monte Carlo noise when the baseline's sd allows it; a team that promises "never miss a
// deadline" states that promise as a rule instead.
#include <string>

namespace spotsim {

enum class Comparison { kAtLeast, kAtMost, kGreater, kLess, kEqual };

struct MetricRequirement {
  std::string text;    // as given, e.g. "deadline_met>=1.0"
  std::string metric;  // a metric name of the results (app/run_metrics.cpp)
  Comparison comparison = Comparison::kAtLeast;
  double value = 0.0;
};

// "METRIC OP VALUE" with OP one of >=, <=, >, <, == (spaces around allowed); InputError naming `option` otherwise,
// or when the metric is none of the results' metrics.
MetricRequirement parse_metric_requirement(const std::string& text, const std::string& option = "--require");

bool requirement_met(const MetricRequirement& requirement, double mean);

}  // namespace spotsim

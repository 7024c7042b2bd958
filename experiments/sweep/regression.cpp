#include "experiments/sweep/regression.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <boost/math/distributions/students_t.hpp>

#include "experiments/run_metrics.hpp"
#include "sim/errors.hpp"

namespace spotsim {

namespace {

double unit_floor(const std::string& unit) {
  if (unit == "USD") return 0.01;
  if (unit == "h") return 0.01;
  if (unit == "fraction") return 0.005;
  return 0.01;  // counts
}

std::string unit_of(const std::string& metric) {
  for (const MetricDefinition& m : run_metrics()) {
    if (metric == m.name) return m.unit;
  }
  return "";
}

bool same_configuration(const BaselineEntry& a, const BaselineEntry& b) {
  return a.trace == b.trace && a.job == b.job && a.policy == b.policy && a.checkpoint == b.checkpoint;
}

}  // namespace

Verdict judge(const std::string& metric, const std::string& unit, const MeanRecord& baseline, const MeanRecord& fresh,
              const RegressionRule& rule, MetricComparison& out) {
  out.metric = metric;
  out.baseline = baseline;
  out.fresh = fresh;
  const double sign = metric == "completed" || metric == "deadline_met" ? -1.0 : 1.0;
  out.worse_by = sign * (fresh.mean - baseline.mean);
  out.threshold = std::max(rule.relative_threshold * std::fabs(baseline.mean), unit_floor(unit));
  const double d = out.worse_by;
  if (d == 0.0) {
    out.p_value = 1.0;
    return out.verdict = Verdict::kUnchanged;
  }
  // Welch's test of the difference of two means with unequal variances (Welch 1947).
  const double vb = baseline.n > 0 ? baseline.sd * baseline.sd / static_cast<double>(baseline.n) : 0.0;
  const double vf = fresh.n > 0 ? fresh.sd * fresh.sd / static_cast<double>(fresh.n) : 0.0;
  const double se = std::sqrt(vb + vf);
  if (se == 0.0) {
    out.p_value = 0.0;  // no noise at all: any change is real
  } else {
    const double denominator = (baseline.n > 1 ? vb * vb / static_cast<double>(baseline.n - 1) : 0.0) +
                               (fresh.n > 1 ? vf * vf / static_cast<double>(fresh.n - 1) : 0.0);
    const double dof = denominator > 0 ? (vb + vf) * (vb + vf) / denominator : 1.0;
    const boost::math::students_t_distribution<double> t(std::max(dof, 1.0));
    out.p_value = boost::math::cdf(boost::math::complement(t, std::fabs(d) / se));
  }
  const bool significant = out.p_value < rule.alpha;
  const bool matters = std::fabs(d) > out.threshold;
  if (significant && matters) return out.verdict = d > 0 ? Verdict::kRegression : Verdict::kImprovement;
  return out.verdict = Verdict::kNoise;
}

std::vector<MetricComparison> compare_with_baseline(const Baseline& baseline, const std::vector<BaselineEntry>& fresh,
                                                    const RegressionRule& rule, const std::string& file) {
  if (fresh.size() != baseline.entries.size()) {
    throw InputError(file + ": field 'configurations': expected the " + std::to_string(fresh.size()) +
                     " configurations of field 'spec', found " + std::to_string(baseline.entries.size()) +
                     "; rewrite the baseline deliberately with --update");
  }
  std::vector<MetricComparison> rows;
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    const BaselineEntry& old = baseline.entries[i];
    if (!same_configuration(old, fresh[i])) {
      throw InputError(file + ": field 'configurations[" + std::to_string(i) + "]': expected trace '" + fresh[i].trace +
                       "', job '" + fresh[i].job + "', policy '" + fresh[i].policy + "', checkpoint '" +
                       fresh[i].checkpoint + "' as the spec expands; rewrite the baseline deliberately with --update");
    }
    for (const std::string& metric : baseline.metrics) {
      MetricComparison row;
      row.entry = &old;
      judge(metric, unit_of(metric), old.metrics.at(metric), fresh[i].metrics.at(metric), rule, row);
      rows.push_back(row);
    }
  }
  return rows;
}

std::string regression_table(const std::vector<MetricComparison>& rows, bool all) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-11s %-14s %-22s %-20s %-28s %-17s %12s %12s %11s %8s %9s %10s\n", "verdict",
                "trace", "job", "policy", "checkpoint", "metric", "baseline", "new", "worse by", "%", "p", "threshold");
  out += line;
  std::size_t shown = 0;
  for (const MetricComparison& r : rows) {
    if (!all && r.verdict == Verdict::kUnchanged) continue;
    ++shown;
    const char* verdict = r.verdict == Verdict::kRegression    ? "REGRESSION"
                          : r.verdict == Verdict::kImprovement ? "improved"
                          : r.verdict == Verdict::kNoise       ? "noise"
                                                               : "unchanged";
    const double percent = r.baseline.mean != 0.0 ? 100.0 * r.worse_by / std::fabs(r.baseline.mean) : 0.0;
    std::snprintf(line, sizeof line, "%-11s %-14.14s %-22.22s %-20.20s %-28.28s %-17s %12.4f %12.4f %+11.4f %+7.2f%% %9.2g %10.4f\n",
                  verdict, r.entry->trace.c_str(), r.entry->job.c_str(), r.entry->policy.c_str(),
                  r.entry->checkpoint.c_str(), r.metric.c_str(), r.baseline.mean, r.fresh.mean, r.worse_by, percent,
                  r.p_value, r.threshold);
    out += line;
  }
  if (shown == 0) out += "(no metric moved)\n";
  return out;
}

}  // namespace spotsim

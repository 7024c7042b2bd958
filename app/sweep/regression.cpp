#include "app/sweep/regression.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "app/run_metrics.hpp"
#include "base/errors.hpp"

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
      row.configuration = {old.trace, old.job, old.policy, old.checkpoint};
      judge(metric, unit_of(metric), old.metrics.at(metric), fresh[i].metrics.at(metric), rule, row);
      rows.push_back(row);
    }
  }
  return rows;
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "regression";
    case Verdict::kImprovement: return "improvement";
    case Verdict::kNoise: return "noise";
    case Verdict::kUnchanged: return "unchanged";
  }
  return "unchanged";  // unreachable: every enumerator is handled above
}

}  // namespace spotsim

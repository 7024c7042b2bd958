#include "base/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <iterator>
#include <vector>

namespace spotsim {

PercentilePosition percentile_position(std::size_t n, double q) {
  const double h = q * static_cast<double>(n - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  return {lo, std::min(lo + 1, n - 1), h - static_cast<double>(lo)};
}

double interpolate_percentile(const PercentilePosition& at, double lo_value, double hi_value) {
  return lo_value + at.weight * (hi_value - lo_value);
}

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return NAN;
  const PercentilePosition at = percentile_position(sorted.size(), q);
  return interpolate_percentile(at, sorted[at.lo], sorted[at.hi]);
}

double student_t_quantile(double dof, double p) {
  return boost::math::quantile(boost::math::students_t_distribution<double>(dof), p);
}

Summary summarize(std::span<const double> values, double confidence) {
  // NaN marks a value that does not exist for that run (e.g. regret without an optimum): left out.
  if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); })) {
    std::vector<double> present;
    std::copy_if(values.begin(), values.end(), std::back_inserter(present), [](double v) { return !std::isnan(v); });
    return summarize(present, confidence);
  }
  Summary s;
  s.n = values.size();
  if (s.n == 0) {
    s.mean = s.sd = s.min = s.max = s.p50 = s.p95 = s.p99 = s.ci_low = s.ci_high = NAN;
    return s;
  }
  RunningMoments moments;  // Welford's update: numerically stable in one pass
  for (double v : values) moments.add(v);
  apply_moments(moments, confidence, s);
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.p50 = percentile_sorted(sorted, 0.50);
  s.p95 = percentile_sorted(sorted, 0.95);
  s.p99 = percentile_sorted(sorted, 0.99);
  return s;
}

void apply_moments(const RunningMoments& moments, double confidence, Summary& s) {
  s.n = moments.n;
  s.mean = moments.mean;
  s.sd = s.n > 1 ? std::sqrt(moments.m2 / static_cast<double>(s.n - 1)) : 0.0;
  if (s.n > 1) {
    // Every metric of a configuration (and usually every configuration) has the same n: the quantile, a few
    // microseconds of root finding, is computed once per (n, confidence) and remembered.
    thread_local double cached_dof = -1.0, cached_p = -1.0, cached_quantile = 0.0;
    const double dof = static_cast<double>(s.n - 1), p = 0.5 + confidence / 2.0;
    if (dof != cached_dof || p != cached_p) {
      cached_quantile = student_t_quantile(dof, p);
      cached_dof = dof;
      cached_p = p;
    }
    const double half = cached_quantile * s.sd / std::sqrt(static_cast<double>(s.n));
    s.ci_low = s.mean - half;
    s.ci_high = s.mean + half;
  } else {
    s.ci_low = s.ci_high = s.mean;
  }
}

}  // namespace spotsim

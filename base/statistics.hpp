#pragma once
// Monte Carlo summaries: mean, standard deviation, percentiles and a Student-t confidence interval for the mean
// (the interval CloudSim Plus's experiment runner reports). Accumulated in replication order so that results do
// not depend on which thread ran which replication.
#include <cstddef>
#include <span>
#include <vector>

namespace spotsim {

struct Summary {
  std::size_t n = 0;
  double mean = 0.0;
  double sd = 0.0;  // sample standard deviation (n - 1)
  double min = 0.0;
  double max = 0.0;
  double p50 = 0.0;
  double p95 = 0.0;
  double p99 = 0.0;
  double ci_low = 0.0;  // mean -/+ t_{n-1, (1+level)/2} * sd / sqrt(n)
  double ci_high = 0.0;
};

// Percentile by linear interpolation between order statistics (Hyndman & Fan type 7, as numpy's default).
// `sorted` must be ascending; q in [0, 1].
double percentile_sorted(std::span<const double> sorted, double q);

// Where type 7 puts quantile q among n ascending values: between the order statistics of 0-based ranks `lo` and
// `hi` (= lo + 1, or lo at the top), at fraction `weight` of the way. Shared by percentile_sorted() and the
// streaming summaries (base/streaming_summary.hpp), which fetch the two order statistics without sorting.
struct PercentilePosition {
  std::size_t lo = 0;
  std::size_t hi = 0;
  double weight = 0.0;
};
PercentilePosition percentile_position(std::size_t n, double q);
double interpolate_percentile(const PercentilePosition& at, double lo_value, double hi_value);

// Welford's running mean and sum of squared deviations, in the order values are added. summarize() and the
// streaming summaries both use it, so both sum in the same floating-point order and agree to the last bit.
struct RunningMoments {
  std::size_t n = 0;
  double mean = 0.0;
  double m2 = 0.0;
  void add(double v) {
    ++n;
    const double delta = v - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (v - mean);
  }
};

// Sets s.n, mean, sd, ci_low and ci_high from the moments (n >= 1).
void apply_moments(const RunningMoments& moments, double confidence, Summary& s);

// Two-sided Student-t quantile t_{dof}(p), via Boost.Math.
double student_t_quantile(double dof, double p);

Summary summarize(std::span<const double> values, double confidence = 0.95);

}  // namespace spotsim

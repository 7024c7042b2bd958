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
  double ci_low = 0.0;   // mean -/+ t_{n-1, (1+level)/2} * sd / sqrt(n)
  double ci_high = 0.0;
};

// Percentile by linear interpolation between order statistics (Hyndman & Fan type 7, as numpy's default).
// `sorted` must be ascending; q in [0, 1].
double percentile_sorted(std::span<const double> sorted, double q);

// Two-sided Student-t quantile t_{dof}(p), via Boost.Math.
double student_t_quantile(double dof, double p);

Summary summarize(std::span<const double> values, double confidence = 0.95);

}  // namespace spotsim

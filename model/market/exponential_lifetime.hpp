#pragma once
// Memoryless lifetimes: F(t) = 1 - exp(-t/mean). The classic model behind Young's and Daly's checkpoint intervals.
#include <cmath>

namespace spotsim {

struct ExponentialLifetime {
  double mean_hours = 1.0;

  double cdf(double t) const { return t <= 0.0 ? 0.0 : -std::expm1(-t / mean_hours); }
  double hazard(double /*t*/) const { return 1.0 / mean_hours; }
  double mean() const { return mean_hours; }
  double quantile(double u) const { return -mean_hours * std::log1p(-u); }
  // The minimum of n independent lifetimes is exponential with mean/n.
  double mean_of_minimum(int n) const { return mean_hours / n; }
};

}  // namespace spotsim

#pragma once
// Weibull lifetimes: F(t) = 1 - exp(-(t/scale)^shape); shape < 1 gives a decreasing hazard (infant mortality),
// shape > 1 an increasing one (wear-out).
#include <cmath>

namespace spotsim {

struct WeibullLifetime {
  double shape = 1.0;
  double scale_hours = 1.0;

  double cdf(double t) const { return t <= 0.0 ? 0.0 : -std::expm1(-std::pow(t / scale_hours, shape)); }
  double hazard(double t) const {
    if (t <= 0.0) return shape < 1.0 ? INFINITY : (shape == 1.0 ? 1.0 / scale_hours : 0.0);
    return shape / scale_hours * std::pow(t / scale_hours, shape - 1.0);
  }
  double mean() const { return scale_hours * std::tgamma(1.0 + 1.0 / shape); }
  double quantile(double u) const { return scale_hours * std::pow(-std::log1p(-u), 1.0 / shape); }
  // min of n i.i.d. Weibull(k, s) is Weibull(k, s * n^(-1/k)).
  double mean_of_minimum(int n) const { return mean() * std::pow(static_cast<double>(n), -1.0 / shape); }
};

}  // namespace spotsim

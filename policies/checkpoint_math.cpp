#include "policies/checkpoint_math.hpp"

#include <cmath>

namespace spotsim {

double young_interval(double delta, double mtbf) { return std::sqrt(2.0 * delta * mtbf); }

double daly_interval(double delta, double mtbf) {
  if (delta >= 2.0 * mtbf) return mtbf;
  const double r = delta / (2.0 * mtbf);
  return std::sqrt(2.0 * delta * mtbf) * (1.0 + std::sqrt(r) / 3.0 + r / 9.0) - delta;
}

double expected_segmented_time(double work, double tau, double delta, double restart, double lambda) {
  if (lambda <= 0.0) return work / tau * (tau + delta);
  return work / tau * std::exp(lambda * restart) * std::expm1(lambda * (tau + delta)) / lambda;
}

}  // namespace spotsim

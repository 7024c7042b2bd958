#pragma once
// The empirical distribution function of a sample, as steps to draw: F(x) = (values <= x) / n.
#include <cstddef>
#include <vector>

namespace spotsim {

struct CdfPoint {
  double x = 0.0;
  double probability = 0.0;  // F(x) just after the step at x
};

// One point per distinct value, sorted by x; a sample with more than `max_points` distinct values is thinned to
// evenly spaced probabilities, always keeping the first and last step, so a chart of 10^6 runs stays small.
// NaN values are left out.
std::vector<CdfPoint> empirical_cdf(std::vector<double> values, std::size_t max_points = 400);

}  // namespace spotsim

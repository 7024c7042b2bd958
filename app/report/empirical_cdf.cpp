#include "app/report/empirical_cdf.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

std::vector<CdfPoint> empirical_cdf(std::vector<double> values, std::size_t max_points) {
  std::erase_if(values, [](double v) { return std::isnan(v); });
  std::sort(values.begin(), values.end());
  const double n = static_cast<double>(values.size());
  std::vector<CdfPoint> steps;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i + 1 < values.size() && values[i + 1] == values[i]) continue;  // the step is at the last of equal values
    steps.push_back({values[i], static_cast<double>(i + 1) / n});
  }
  if (steps.size() <= std::max<std::size_t>(max_points, 2)) return steps;
  std::vector<CdfPoint> thinned;
  const double stride = static_cast<double>(steps.size() - 1) / static_cast<double>(max_points - 1);
  for (std::size_t k = 0; k < max_points; ++k) {
    thinned.push_back(
        steps[std::min(steps.size() - 1, static_cast<std::size_t>(std::llround(static_cast<double>(k) * stride)))]);
  }
  return thinned;
}

}  // namespace spotsim

#include "app/sweep/pareto.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

std::vector<bool> pareto_frontier(const std::vector<ObjectivePoint>& points) {
  std::vector<bool> on_front(points.size(), false);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isnan(points[i].cost) && !std::isnan(points[i].time)) order.push_back(i);
  }
  // Sweep by cost, then time: a point is dominated exactly when an earlier point of strictly lower cost has time
  // <= its time, or an earlier point of equal cost has strictly lower time. O(n log n) (Kung, Luccio &
  // Preparata, JACM 1975, the two-dimensional case).
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return points[a].cost != points[b].cost ? points[a].cost < points[b].cost : points[a].time < points[b].time;
  });
  double best_time_at_lower_cost = INFINITY;
  for (std::size_t k = 0; k < order.size();) {
    // The points of one cost value; the first has the lowest time among them.
    std::size_t end = k;
    while (end < order.size() && points[order[end]].cost == points[order[k]].cost) ++end;
    const double group_best = points[order[k]].time;
    for (std::size_t m = k; m < end; ++m) {
      const double t = points[order[m]].time;
      on_front[order[m]] = t == group_best && t < best_time_at_lower_cost;
    }
    best_time_at_lower_cost = std::min(best_time_at_lower_cost, group_best);
    k = end;
  }
  return on_front;
}

}  // namespace spotsim

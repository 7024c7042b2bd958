#pragma once
// Pareto frontier of points to be minimised in both coordinates (cost, completion time): a point is on the
// frontier when no other point is at least as good in both and strictly better in one. Equal points are all on
// it (neither dominates the other); points with a NaN coordinate never are.
#include <vector>

namespace spotsim {

struct ObjectivePoint {
  double cost = 0.0;
  double time = 0.0;
};

std::vector<bool> pareto_frontier(const std::vector<ObjectivePoint>& points);

}  // namespace spotsim

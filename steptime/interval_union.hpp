#pragma once
// Busy time of a GPU whose streams overlap: the length of the union of its activity intervals, not the sum of
// their durations (two kernels running concurrently on two streams keep the GPU busy once).
#include <vector>

namespace spotsim {

struct Interval {
  double start = 0.0;
  double end = 0.0;
};

// Length of the union; empty or negative-length intervals contribute nothing. Sorts `intervals` in place.
double union_length(std::vector<Interval>& intervals);

}  // namespace spotsim

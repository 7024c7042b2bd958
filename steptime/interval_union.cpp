#include "steptime/interval_union.hpp"

#include <algorithm>

namespace spotsim {

double union_length(std::vector<Interval>& intervals) {
  std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
  double total = 0.0;
  bool open = false;
  double run_start = 0.0, run_end = 0.0;
  for (const Interval& i : intervals) {
    if (!(i.end > i.start)) continue;
    if (open && i.start <= run_end) {
      run_end = std::max(run_end, i.end);
      continue;
    }
    if (open) total += run_end - run_start;
    run_start = i.start;
    run_end = i.end;
    open = true;
  }
  if (open) total += run_end - run_start;
  return total;
}

}  // namespace spotsim

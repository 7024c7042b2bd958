#include "base/streaming_summary.hpp"

#include <cmath>
#include <vector>

namespace spotsim {

Summary StreamingSummary::finish(double confidence) {
  Summary s;
  if (moments_.n == 0) {
    s.mean = s.sd = s.min = s.max = s.p50 = s.p95 = s.p99 = s.ci_low = s.ci_high = NAN;
    return s;
  }
  apply_moments(moments_, confidence, s);
  // One selection for every rank needed: min, max and the two order statistics around each percentile.
  const std::size_t n = moments_.n;
  const PercentilePosition p50 = percentile_position(n, 0.50);
  const PercentilePosition p95 = percentile_position(n, 0.95);
  const PercentilePosition p99 = percentile_position(n, 0.99);
  const std::vector<std::uint64_t> ranks = {0, n - 1, p50.lo, p50.hi, p95.lo, p95.hi, p99.lo, p99.hi};
  const std::vector<double> v = values_.order_statistics(ranks);
  s.min = v[0];
  s.max = v[1];
  s.p50 = interpolate_percentile(p50, v[2], v[3]);
  s.p95 = interpolate_percentile(p95, v[4], v[5]);
  s.p99 = interpolate_percentile(p99, v[6], v[7]);
  return s;
}

}  // namespace spotsim

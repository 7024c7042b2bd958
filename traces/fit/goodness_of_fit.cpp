#include "traces/fit/goodness_of_fit.hpp"

#include <algorithm>

#include "model/market/kaplan_meier.hpp"

namespace spotsim {

EmpiricalCdf empirical_cdf(const std::vector<LifetimeRecord>& records, bool censoring_aware) {
  std::vector<LifetimeRecord> used;
  for (const auto& r : records) {
    if (censoring_aware || r.preempted) used.push_back(r);
  }
  EmpiricalCdf out;
  double previous = 0.0;
  for (const KaplanMeierStep& step : kaplan_meier(used)) {
    out.times.push_back(step.time);
    out.before.push_back(previous);
    out.after.push_back(1.0 - step.survival);
    previous = 1.0 - step.survival;
  }
  return out;
}

}  // namespace spotsim

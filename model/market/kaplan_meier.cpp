#include "model/market/kaplan_meier.hpp"

#include <algorithm>

namespace spotsim {

std::vector<KaplanMeierStep> kaplan_meier(const std::vector<LifetimeRecord>& records) {
  std::vector<LifetimeRecord> sorted = records;
  std::sort(sorted.begin(), sorted.end(),
            [](const LifetimeRecord& a, const LifetimeRecord& b) { return a.hours < b.hours; });
  std::vector<KaplanMeierStep> steps;
  double survival = 1.0;
  std::size_t at_risk = sorted.size();
  for (std::size_t i = 0; i < sorted.size();) {
    const double t = sorted[i].hours;
    std::size_t events = 0, leaving = 0;
    for (; i < sorted.size() && sorted[i].hours == t; ++i, ++leaving) events += sorted[i].preempted ? 1 : 0;
    if (events > 0) {
      survival *= 1.0 - static_cast<double>(events) / static_cast<double>(at_risk);
      steps.push_back({t, at_risk, events, survival});
    }
    at_risk -= leaving;
  }
  return steps;
}

double kaplan_meier_survival(const std::vector<KaplanMeierStep>& steps, double t) {
  const auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                   [](double value, const KaplanMeierStep& s) { return value < s.time; });
  return it == steps.begin() ? 1.0 : std::prev(it)->survival;
}

}  // namespace spotsim

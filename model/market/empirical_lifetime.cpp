#include "model/market/empirical_lifetime.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "model/market/kaplan_meier.hpp"

namespace spotsim {

EmpiricalLifetime::EmpiricalLifetime(std::vector<LifetimeRecord> records) {
  for (const auto& r : records) {
    if (!std::isfinite(r.hours) || r.hours < 0.0) {
      throw InputError("empirical lifetime model: every lifetime must be a finite number of hours >= 0");
    }
  }
  std::sort(records.begin(), records.end(), [](const LifetimeRecord& a, const LifetimeRecord& b) {
    return a.hours < b.hours || (a.hours == b.hours && a.preempted && !b.preempted);  // events before censoring
  });
  event_count_ = static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const LifetimeRecord& r) { return r.preempted; }));
  if (event_count_ == 0) {
    throw InputError("empirical lifetime model: expected at least one preempted (uncensored) lifetime");
  }
  times_.push_back(0.0);
  survival_.push_back(1.0);
  for (const KaplanMeierStep& step : kaplan_meier(records)) {
    if (step.time == 0.0) {
      survival_.front() = step.survival;  // deaths at age 0: an atom at the origin
    } else {
      times_.push_back(step.time);
      survival_.push_back(step.survival);
    }
  }
  const double s = survival_.back();
  // Censored tail: survival stays at s after the last event; put the rest of the mass at the longest record.
  const double longest = records.back().hours;
  if (s > 0.0) {
    if (longest > times_.back()) {
      times_.push_back(longest);
      survival_.push_back(s);
    }
    times_.push_back(std::nextafter(times_.back(), INFINITY));
    survival_.push_back(0.0);
  }
  records_ = std::move(records);
}

std::size_t EmpiricalLifetime::segment(double t) const {
  auto it = std::upper_bound(times_.begin(), times_.end(), t);
  return static_cast<std::size_t>(it - times_.begin()) - 1;
}

double EmpiricalLifetime::survival(double t) const {
  if (t <= 0.0) return t < 0.0 ? 1.0 : survival_.front();
  if (t >= times_.back()) return 0.0;
  const std::size_t i = segment(t);
  const double s0 = survival_[i], s1 = survival_[i + 1];
  if (s1 <= 0.0 || s0 <= 0.0) return s0;  // the final drop to 0 happens at the knot itself
  const double frac = (t - times_[i]) / (times_[i + 1] - times_[i]);
  return s0 * std::pow(s1 / s0, frac);
}

double EmpiricalLifetime::hazard(double t) const {
  if (t < 0.0) return 0.0;
  if (t >= times_.back()) return INFINITY;
  const std::size_t i = segment(t);
  const double s0 = survival_[i], s1 = survival_[i + 1];
  if (s1 <= 0.0) return INFINITY;
  return std::log(s0 / s1) / (times_[i + 1] - times_[i]);
}

double EmpiricalLifetime::mean() const {
  // Integral of S: on a log-linear segment, integral = (s0 - s1) * width / ln(s0/s1).
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < times_.size(); ++i) {
    const double s0 = survival_[i], s1 = survival_[i + 1], w = times_[i + 1] - times_[i];
    if (s1 <= 0.0)
      total += s0 * w;
    else if (s0 == s1)
      total += s0 * w;
    else
      total += (s0 - s1) * w / std::log(s0 / s1);
  }
  return total;
}

double EmpiricalLifetime::quantile(double u) const {
  const double target = 1.0 - u;  // find t with S(t) = target
  if (target >= survival_.front()) return 0.0;
  // survival_ is non-increasing: the first knot with survival <= target ends the segment.
  auto it =
      std::upper_bound(survival_.begin(), survival_.end(), target, [](double value, double s) { return s <= value; });
  const std::size_t j = static_cast<std::size_t>(it - survival_.begin());
  const std::size_t i = j - 1;
  const double s0 = survival_[i], s1 = survival_[j];
  if (s1 <= 0.0) return times_[j];  // the last drop is an atom at the knot where S reaches 0
  const double frac = std::log(target / s0) / std::log(s1 / s0);
  return times_[i] + frac * (times_[j] - times_[i]);
}

double EmpiricalLifetime::mean_of_minimum(int n) const {
  if (n == 1) return mean();
  // S(t)^n is again log-linear on each segment, with ratio (s1/s0)^n.
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < times_.size(); ++i) {
    const double s0 = std::pow(survival_[i], n), s1 = std::pow(survival_[i + 1], n);
    const double w = times_[i + 1] - times_[i];
    if (s1 <= 0.0 || s0 == s1)
      total += s0 * w;
    else
      total += (s0 - s1) * w / std::log(s0 / s1);
  }
  return total;
}

}  // namespace spotsim

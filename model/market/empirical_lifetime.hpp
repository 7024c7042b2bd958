#pragma once
// Recorded lifetimes replayed through their Kaplan-Meier estimate (Kaplan & Meier, JASA 1958), so that
// right-censored records (VMs stopped by their user, not preempted) count as "survived at least this long".
//
// Between the distinct event times the survival curve is interpolated log-linearly (a piecewise-constant hazard),
// which keeps the CDF continuous and invertible. If the longest record is censored, the remaining mass is placed
// at that time (we know nothing beyond it).
#include <cstddef>
#include <vector>

namespace spotsim {

struct LifetimeRecord {
  double hours = 0.0;
  bool preempted = true;  // false = right-censored
};

class EmpiricalLifetime {
 public:
  explicit EmpiricalLifetime(std::vector<LifetimeRecord> records);

  double cdf(double t) const { return 1.0 - survival(t); }
  double survival(double t) const;
  double hazard(double t) const;
  double mean() const;
  double quantile(double u) const;
  double mean_of_minimum(int n) const;

  // The Kaplan-Meier knots: survival_[i] = S(times_[i]); times_[0] = 0, survival_[0] = 1.
  const std::vector<double>& knot_times() const { return times_; }
  const std::vector<double>& knot_survival() const { return survival_; }
  std::size_t record_count() const { return records_.size(); }
  const std::vector<LifetimeRecord>& records() const { return records_; }  // sorted by duration
  std::size_t event_count() const { return event_count_; }

 private:
  std::size_t segment(double t) const;  // i with times_[i] <= t < times_[i+1]

  std::vector<LifetimeRecord> records_;
  std::vector<double> times_;
  std::vector<double> survival_;
  std::size_t event_count_ = 0;
};

}  // namespace spotsim

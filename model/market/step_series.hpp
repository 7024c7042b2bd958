#pragma once
// A piecewise-constant function of wall-clock time: value[i] holds on [time[i], time[i+1]), the last value holds
// until `span`, and the whole pattern repeats with period `span` (recorded traces are replayed cyclically so that
// a job longer than its trace still sees realistic behaviour; see docs/trace-format.md).
// A series with one point and span = kNever is a constant.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

class StepSeries {
 public:
  StepSeries() = default;
  static StepSeries constant(double value);
  // times must start at 0, be strictly increasing and lie below span; values has the same length.
  StepSeries(std::vector<Millis> times, std::vector<double> values, Millis span);

  bool is_constant() const { return times_.size() == 1 && span_ == kNever; }
  bool empty() const { return times_.empty(); }
  Millis span() const { return span_; }
  const std::vector<Millis>& times() const { return times_; }
  const std::vector<double>& values() const { return values_; }

  double at(Millis t) const;
  // Index of the change point in force at t (within its period): the bucket lookup at() uses.
  std::size_t index_in_force(Millis t) const { return index_at(phase_of(t)); }
  // The first time > t at which the value satisfies pred (e.g. "drops below 2"), or kNever.
  template <typename Pred>
  Millis next_time_where(Millis t, Pred pred) const;
  // next_time_where(t, v >= threshold) in O(log n): the first time > t at which the value is at least `threshold`
  // (spot capacity for a job's nodes), or kNever. The engine asks it whenever a job waits for spot.
  Millis next_time_at_least(Millis t, double threshold) const;
  // Integral of the value over [from, to) in value x hours (price x time = cost).
  double integrate_hours(Millis from, Millis to) const;
  double min_value() const;
  double max_value() const;
  // Fraction of the period during which pred(value) holds.
  template <typename Pred>
  double fraction_where(Pred pred) const;

 private:
  std::size_t index_at(Millis phase) const;  // phase in [0, span)
  void build_bucket_index();
  void build_max_tree();
  // The first index in [lo, hi] whose value is >= threshold, or times_.size() (descent of max_tree_).
  std::size_t first_index_at_least(std::size_t lo, std::size_t hi, double threshold) const;
  Millis phase_of(Millis t) const {
    if (span_ == kNever || (t >= 0 && t < span_)) return t;  // the common case costs no division
    return ((t % span_) + span_) % span_;
  }
  double integrate_period_prefix(Millis phase) const;  // integral over [0, phase) within one period

  std::vector<Millis> times_;
  std::vector<double> values_;
  std::vector<double> prefix_;  // prefix_[i] = integral over [0, times_[i]) in value x ms
  // A bucket index over time for index_at: bucket b covers [b << bucket_shift_, (b + 1) << bucket_shift_) and
  // bucket_first_[b] is the index in force at its start. About one change per bucket, so a lookup is a shift and a
  // step or two instead of a binary search over the whole series (the engine looks up availability at every
  // event); a crowded bucket falls back to a binary search within it.
  std::vector<std::uint32_t> bucket_first_;
  // A max segment tree over values_ for next_time_at_least: leaves at [leaves_, 2 leaves_), node k holds the maximum
  // of its children 2k and 2k + 1; padding leaves hold -infinity.
  std::vector<double> max_tree_;
  std::size_t leaves_ = 0;
  int bucket_shift_ = 0;
  Millis span_ = kNever;
};

template <typename Pred>
Millis StepSeries::next_time_where(Millis t, Pred pred) const {
  if (times_.empty()) return kNever;
  if (span_ == kNever) {
    for (std::size_t i = index_at(t) + 1; i < times_.size(); ++i) {
      if (pred(values_[i])) return times_[i];
    }
    return kNever;
  }
  const Millis phase = phase_of(t);
  const Millis period_start = t - phase;
  const std::size_t start = index_at(phase);
  // Scan at most one full period forward, wrapping once.
  for (std::size_t k = 1; k <= times_.size(); ++k) {
    const std::size_t i = (start + k) % times_.size();
    const Millis wraps = static_cast<Millis>((start + k) / times_.size());
    if (pred(values_[i])) return period_start + wraps * span_ + times_[i];
  }
  return kNever;
}

template <typename Pred>
double StepSeries::fraction_where(Pred pred) const {
  if (times_.empty()) return 0.0;
  if (span_ == kNever) return pred(values_.front()) ? 1.0 : 0.0;
  Millis total = 0;
  for (std::size_t i = 0; i < times_.size(); ++i) {
    const Millis end = i + 1 < times_.size() ? times_[i + 1] : span_;
    if (pred(values_[i])) total += end - times_[i];
  }
  return static_cast<double>(total) / static_cast<double>(span_);
}

}  // namespace spotsim

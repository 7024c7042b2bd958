#include "model/market/step_series.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace spotsim {

StepSeries StepSeries::constant(double value) { return StepSeries({0}, {value}, kNever); }

StepSeries::StepSeries(std::vector<Millis> times, std::vector<double> values, Millis span)
    : times_(std::move(times)), values_(std::move(values)), span_(span) {
  assert(!times_.empty() && times_.size() == values_.size() && times_.front() == 0);
  assert(std::is_sorted(times_.begin(), times_.end()) && times_.back() < span_);
  prefix_.resize(times_.size());
  double acc = 0.0;
  for (std::size_t i = 0; i < times_.size(); ++i) {
    prefix_[i] = acc;
    if (i + 1 < times_.size()) acc += values_[i] * static_cast<double>(times_[i + 1] - times_[i]);
  }
  build_bucket_index();
  build_max_tree();
}

void StepSeries::build_max_tree() {
  leaves_ = 1;
  while (leaves_ < values_.size()) leaves_ <<= 1;
  max_tree_.assign(2 * leaves_, -std::numeric_limits<double>::infinity());
  std::copy(values_.begin(), values_.end(), max_tree_.begin() + static_cast<std::ptrdiff_t>(leaves_));
  for (std::size_t k = leaves_ - 1; k >= 1; --k) max_tree_[k] = std::max(max_tree_[2 * k], max_tree_[2 * k + 1]);
}

std::size_t StepSeries::first_index_at_least(std::size_t lo, std::size_t hi, double threshold) const {
  const std::size_t none = times_.size();
  if (lo > hi || hi >= times_.size()) return none;
  // Climb from leaf lo: at each left child whose right sibling holds a value >= threshold, that sibling's subtree
  // has the answer (every index in it lies after lo); then descend to its first such leaf.
  std::size_t k = lo + leaves_;
  if (max_tree_[k] >= threshold) return lo <= hi ? lo : none;
  while (k > 1) {
    if ((k & 1) == 0 && max_tree_[k + 1] >= threshold) {
      k = k + 1;
      while (k < leaves_) k = max_tree_[2 * k] >= threshold ? 2 * k : 2 * k + 1;
      const std::size_t i = k - leaves_;
      return i <= hi ? i : none;
    }
    k >>= 1;
  }
  return none;
}

Millis StepSeries::next_time_at_least(Millis t, double threshold) const {
  if (times_.empty()) return kNever;
  const std::size_t n = times_.size();
  if (span_ == kNever) {
    const std::size_t i = first_index_at_least(index_at(t) + 1, n - 1, threshold);
    return i < n ? times_[i] : kNever;
  }
  // As next_time_where: the indices after the one in force, then (wrapped once) those up to it.
  const Millis phase = phase_of(t);
  const Millis period_start = t - phase;
  const std::size_t start = index_at(phase);
  std::size_t i = first_index_at_least(start + 1, n - 1, threshold);
  if (i < n) return period_start + times_[i];
  i = first_index_at_least(0, start, threshold);
  return i < n ? period_start + span_ + times_[i] : kNever;
}

void StepSeries::build_bucket_index() {
  if (times_.size() < 2 || times_.size() > UINT32_MAX) return;
  // Buckets of 2^k ms with about as many buckets as changes: [0, last change] split so that 2^k >= range / n.
  const Millis range = times_.back() + 1;
  const auto n = static_cast<Millis>(times_.size());
  while ((Millis{1} << bucket_shift_) * n < range && bucket_shift_ < 62) ++bucket_shift_;
  const auto buckets = static_cast<std::size_t>(((range - 1) >> bucket_shift_) + 2);
  bucket_first_.resize(buckets);
  std::size_t i = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    const Millis start = static_cast<Millis>(b) << bucket_shift_;
    while (i + 1 < times_.size() && times_[i + 1] <= start) ++i;
    bucket_first_[b] = static_cast<std::uint32_t>(i);
  }
}

std::size_t StepSeries::index_at(Millis phase) const {
  if (phase >= times_.back()) return times_.size() - 1;
  if (bucket_first_.empty() || phase < 0) {
    auto it = std::upper_bound(times_.begin(), times_.end(), phase);
    return it == times_.begin() ? 0 : static_cast<std::size_t>(it - times_.begin()) - 1;
  }
  // phase lies in [0, last change): its bucket and the next exist; the answer is in [first, next bucket's first].
  const auto b = static_cast<std::size_t>(phase >> bucket_shift_);
  std::size_t i = bucket_first_[b];
  const std::size_t last = bucket_first_[b + 1];
  if (last - i > 8) {
    auto it = std::upper_bound(times_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                               times_.begin() + static_cast<std::ptrdiff_t>(last) + 1, phase);
    return static_cast<std::size_t>(it - times_.begin()) - 1;
  }
  while (i < last && times_[i + 1] <= phase) ++i;
  return i;
}

double StepSeries::at(Millis t) const {
  if (times_.empty()) return 0.0;
  if (times_.size() == 1) return values_.front();
  return values_[index_at(phase_of(t))];
}

double StepSeries::integrate_period_prefix(Millis phase) const {
  const std::size_t i = index_at(phase);
  return prefix_[i] + values_[i] * static_cast<double>(phase - times_[i]);
}

double StepSeries::integrate_hours(Millis from, Millis to) const {
  if (to <= from || times_.empty()) return 0.0;
  double ms_units;
  if (times_.size() == 1) {
    ms_units = values_.front() * static_cast<double>(to - from);
  } else if (span_ == kNever) {
    ms_units = integrate_period_prefix(to) - integrate_period_prefix(from);
  } else {
    const double per_period = integrate_period_prefix(span_ - 1) + values_.back();  // [0, span)
    const Millis from_period = (from - phase_of(from)) / span_;
    const Millis to_period = (to - phase_of(to)) / span_;
    ms_units = static_cast<double>(to_period - from_period) * per_period + integrate_period_prefix(phase_of(to)) -
               integrate_period_prefix(phase_of(from));
  }
  return ms_units / static_cast<double>(kMillisPerHour);
}

double StepSeries::min_value() const { return *std::min_element(values_.begin(), values_.end()); }
double StepSeries::max_value() const { return *std::max_element(values_.begin(), values_.end()); }

}  // namespace spotsim

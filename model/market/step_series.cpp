#include "model/market/step_series.hpp"

#include <algorithm>
#include <cassert>

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

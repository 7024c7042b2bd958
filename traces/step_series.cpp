#include "traces/step_series.hpp"

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
}

std::size_t StepSeries::index_at(Millis phase) const {
  auto it = std::upper_bound(times_.begin(), times_.end(), phase);
  return it == times_.begin() ? 0 : static_cast<std::size_t>(it - times_.begin()) - 1;
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

#pragma once
// The times at which a step series changes as a caller sees it (through `key`: "can 2 nodes be had", "the
// price"), listed once so that "when does it next change after t" is a binary search instead of a walk over the
// series' entries (a recording sampled every tick repeats its value for tens of entries). Periodic series repeat
// their changes every period, the wrap from the last entry to the first included when the key differs there.
#include <algorithm>
#include <vector>

#include "base/time.hpp"
#include "model/market/step_series.hpp"

namespace spotsim {

class ChangePoints {
 public:
  template <typename Key>
  ChangePoints(const StepSeries& series, Key key) : period_(series.span()) {
    const std::vector<Millis>& times = series.times();
    const std::vector<double>& values = series.values();
    if (times.empty()) return;
    if (period_ != kNever && key(values.back()) != key(values.front())) changes_.push_back(0);
    for (std::size_t i = 1; i < times.size(); ++i) {
      if (key(values[i]) != key(values[i - 1])) changes_.push_back(times[i]);
    }
  }

  // The first change strictly after t, or kNever.
  Millis next_after(Millis t) const {
    if (changes_.empty()) return kNever;
    if (period_ == kNever) {
      const auto it = std::upper_bound(changes_.begin(), changes_.end(), t);
      return it == changes_.end() ? kNever : *it;
    }
    const Millis phase = ((t % period_) + period_) % period_;
    const Millis period_start = t - phase;
    const auto it = std::upper_bound(changes_.begin(), changes_.end(), phase);
    return it == changes_.end() ? period_start + period_ + changes_.front() : period_start + *it;
  }

 private:
  Millis period_;
  std::vector<Millis> changes_;  // within [0, period)
};

}  // namespace spotsim

#pragma once
// summarize() for values that arrive one at a time and need not be kept: Welford's moments in arrival order (the
// same arithmetic as summarize(), so the same bits for the same order) and exact percentiles from ExactQuantiles.
// NaN values are left out, as summarize() leaves them out.
#include "base/exact_quantiles.hpp"
#include "base/statistics.hpp"

namespace spotsim {

class StreamingSummary {
 public:
  explicit StreamingSummary(QuantileLimits limits = {}) : values_(std::move(limits)) {}

  void add(double value) {
    if (value != value) return;  // NaN: the value does not exist for this run
    moments_.add(value);
    values_.add(value);
  }
  bool spilled() const { return values_.spilled(); }

  // The Summary summarize() would give for the values added, in the order added. Reads the spilled values back:
  // call once, at the end.
  Summary finish(double confidence = 0.95);

 private:
  RunningMoments moments_;
  ExactQuantiles values_;
};

}  // namespace spotsim

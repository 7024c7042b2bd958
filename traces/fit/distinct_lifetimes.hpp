#pragma once
// Records mapped onto their distinct durations. Recorded lifetimes repeat: uptimes of an availability recording
// are multiples of its tick, logs round to the second. A likelihood search evaluates log f(t) or log S(t) of every
// record thousands of times; with this map each distinct duration is evaluated once per step, and the sum still
// runs over the records in their own order, adding the same doubles in the same order as the straightforward loop
// (so the result is bit-identical to it).
#include <cstdint>
#include <vector>

#include "model/market/empirical_lifetime.hpp"

namespace spotsim {

struct DistinctLifetimes {
  std::vector<double> hours;             // the distinct durations, increasing
  std::vector<std::uint32_t> of_record;  // per record, the position of its duration in `hours`
  std::vector<char> has_event;           // per distinct duration: some preempted record has it
  std::vector<char> has_censored;        // per distinct duration: some censored record has it
};

// Sorts a permutation of the records: O(n log n). Durations must not be NaN (fit inputs are validated).
DistinctLifetimes distinct_lifetimes(const std::vector<LifetimeRecord>& records);

}  // namespace spotsim

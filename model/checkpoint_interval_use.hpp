#pragma once
// The periodic checkpoint intervals a checkpoint policy set during one replication, per kind of instance, so that
// outputs can say which interval(s) were actually used (docs/outputs.md#checkpoint-interval). Recorded by
// IntervalRecordingCheckpoint when the engine asks for an interval (once per instance, or after each checkpoint
// for policies whose interval varies), never per event.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace spotsim {

struct CheckpointIntervalUse {
  std::uint32_t count = 0;  // intervals set (kNever, "no periodic checkpoint", is not counted)
  double sum_hours = 0.0;

  void add(double hours) {
    ++count;
    sum_hours += hours;
  }
  // NaN when no interval was set on this kind of instance (left out of summaries).
  double mean_hours() const { return count == 0 ? NAN : sum_hours / count; }
};

}  // namespace spotsim

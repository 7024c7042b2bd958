#pragma once
// Trace events the Kineto reader could not use because of their time fields, counted by what they are and why,
// so that a damaged trace is reported instead of silently giving other step times (docs/step-time.md#skipped).
#include <array>
#include <cstddef>
#include <string>

namespace spotsim {

// What a skipped event would have been used for.
enum class TimedEventGroup { GpuActivity, KernelLaunch, StepAnnotation };
inline constexpr std::size_t kTimedEventGroups = 3;

enum class SkipReason {
  NotComplete,  // `ph` is not "X" (a complete event with ts and dur)
  MissingTs,
  NonNumericTs,  // a string, null, boolean, object or array
  AbsurdTs,      // beyond ±kMaxTimestampUs, or more than kMaxTraceSpanUs from the trace's first timestamp
  MissingDur,
  NonNumericDur,
  NegativeDur,
  AbsurdDur,        // more than kMaxTraceSpanUs
  LongerThanTrace,  // longer than every other event of the trace together spans (see kineto_trace_reader.hpp)
};
inline constexpr std::size_t kSkipReasons = 9;

struct SkippedTraceEvents {
  std::array<std::size_t, kTimedEventGroups> seen{};  // events of each group in the file, used or skipped
  std::array<std::array<std::size_t, kSkipReasons>, kTimedEventGroups> skipped{};

  void add(TimedEventGroup group, SkipReason reason);
  std::size_t skipped_in(TimedEventGroup group) const;
  std::size_t total() const;
  // "3 events skipped: 2 GPU activities (2 with a non-numeric ts), 1 kernel launch (1 with a negative dur)";
  // empty when nothing was skipped.
  std::string summary() const;
};

// Throws InputError naming `path` when the skipped events would change the results beyond what a warning covers:
// any step annotation (steps would merge or vanish), or more than kMaxSkippedPercent of the GPU activities or of
// the kernel launches.
void check_skipped_events(const SkippedTraceEvents& skipped, const std::string& path);

inline constexpr double kMaxSkippedPercent = 1.0;

}  // namespace spotsim

#include "steptime/skipped_trace_events.hpp"

#include <numeric>

#include "base/errors.hpp"

namespace spotsim {

namespace {

std::size_t index(TimedEventGroup g) { return static_cast<std::size_t>(g); }

const char* reason_text(std::size_t reason) {
  static constexpr std::array<const char*, kSkipReasons> texts = {
      "with a ph other than 'X'", "without a ts",       "with a non-numeric ts",
      "with an absurd ts",        "without a dur",      "with a non-numeric dur",
      "with a negative dur",      "with an absurd dur", "with a dur longer than the rest of the trace"};
  return texts[reason];
}

const char* group_text(std::size_t group, std::size_t n) {
  static constexpr std::array<std::array<const char*, 2>, kTimedEventGroups> texts = {
      {{"GPU activity (kernel, memcpy, memset)", "GPU activities (kernels, memcpy, memset)"},
       {"kernel launch", "kernel launches"},
       {"ProfilerStep annotation", "ProfilerStep annotations"}}};
  return texts[group][n == 1 ? 0 : 1];
}

std::string reasons_of(const std::array<std::size_t, kSkipReasons>& counts) {
  std::string out;
  for (std::size_t r = 0; r < kSkipReasons; ++r) {
    if (counts[r] == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(counts[r]) + " " + reason_text(r);
  }
  return out;
}

}  // namespace

void SkippedTraceEvents::add(TimedEventGroup group, SkipReason reason) {
  ++skipped[index(group)][static_cast<std::size_t>(reason)];
}

std::size_t SkippedTraceEvents::skipped_in(TimedEventGroup group) const {
  const auto& counts = skipped[index(group)];
  return std::accumulate(counts.begin(), counts.end(), std::size_t{0});
}

std::size_t SkippedTraceEvents::total() const {
  return skipped_in(TimedEventGroup::GpuActivity) + skipped_in(TimedEventGroup::KernelLaunch) +
         skipped_in(TimedEventGroup::StepAnnotation);
}

std::string SkippedTraceEvents::summary() const {
  const std::size_t n = total();
  if (n == 0) return "";
  std::string out = std::to_string(n) + (n == 1 ? " event" : " events") + " skipped:";
  bool first = true;
  for (std::size_t g = 0; g < kTimedEventGroups; ++g) {
    const std::size_t k = skipped_in(static_cast<TimedEventGroup>(g));
    if (k == 0) continue;
    out += std::string(first ? " " : "; ") + std::to_string(k) + " of " + std::to_string(seen[g]) + " " +
           group_text(g, seen[g]) + ": " + reasons_of(skipped[g]);
    first = false;
  }
  return out;
}

void check_skipped_events(const SkippedTraceEvents& skipped, const std::string& path) {
  const std::string what = "; fix or re-export the trace (docs/step-time.md#skipped-events)";
  if (skipped.skipped_in(TimedEventGroup::StepAnnotation) > 0) {
    throw InputError(path + ": " + skipped.summary() +
                     ". A ProfilerStep annotation is unusable, so steps would be "
                     "merged or lost" +
                     what);
  }
  for (const TimedEventGroup g : {TimedEventGroup::GpuActivity, TimedEventGroup::KernelLaunch}) {
    const double k = static_cast<double>(skipped.skipped_in(g));
    if (k > 0 && 100.0 * k > kMaxSkippedPercent * static_cast<double>(skipped.seen[index(g)])) {
      throw InputError(path + ": " + skipped.summary() + ". More than " +
                       std::to_string(static_cast<int>(kMaxSkippedPercent)) + "% of the " +
                       (g == TimedEventGroup::GpuActivity ? "GPU activities" : "kernel launches") +
                       " are unusable, the reader's limit" + what);
    }
  }
}

}  // namespace spotsim

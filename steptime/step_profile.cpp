#include "steptime/step_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "steptime/interval_union.hpp"

namespace spotsim {

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, 0.5);
}

// Index of the step whose [start, start + duration) contains t, or -1.
long step_containing(const std::vector<StepAnnotation>& steps, double t) {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](double time, const StepAnnotation& s) { return time < s.start_us; });
  if (it == steps.begin()) return -1;
  --it;
  return t < it->start_us + it->duration_us ? static_cast<long>(it - steps.begin()) : -1;
}

void fill_step_timing(const KinetoTrace& trace, StepStats& step) {
  std::vector<Interval> intervals;
  intervals.reserve(step.activities.size());
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (std::size_t i : step.activities) {
    const GpuActivity& a = trace.activities[i];
    intervals.push_back({a.start_us, a.start_us + a.duration_us});
    first = std::min(first, a.start_us);
    last = std::max(last, a.start_us + a.duration_us);
    ClassTotals& totals = step.by_class[static_cast<std::size_t>(a.kind.kernel_class)];
    ++totals.count;
    totals.time_us += a.duration_us;
  }
  step.gpu_busy_us = union_length(intervals);
  step.gpu_span_us = step.activities.empty() ? 0.0 : last - first;
}

}  // namespace

std::vector<bool> warmup_steps(const std::vector<double>& busy_per_step, double tolerance) {
  std::vector<bool> warmup(busy_per_step.size(), false);
  if (busy_per_step.size() < 3) return warmup;
  warmup[0] = true;
  for (std::size_t i = 1; i + 2 < busy_per_step.size(); ++i) {
    const double later = median_of({busy_per_step.begin() + static_cast<long>(i) + 1, busy_per_step.end()});
    if (later <= 0.0 || std::abs(busy_per_step[i] - later) <= tolerance * later) break;
    warmup[i] = true;
  }
  return warmup;
}

std::vector<const StepStats*> StepProfile::steady_steps() const {
  std::vector<const StepStats*> out;
  for (const auto& s : steps) {
    if (!s.warmup) out.push_back(&s);
  }
  return out;
}

StepProfile build_step_profile(const KinetoTrace& trace) {
  StepProfile profile;
  profile.device = trace.main_device_id();
  profile.whole_trace_is_one_step = trace.steps.empty();
  if (profile.whole_trace_is_one_step) {
    StepStats whole;
    whole.name = "whole trace";
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
      if (trace.activities[i].device == profile.device) whole.activities.push_back(i);
    }
    fill_step_timing(trace, whole);
    whole.wall_us = whole.gpu_span_us;
    profile.steps.push_back(std::move(whole));
  } else {
    for (const auto& annotation : trace.steps) {
      StepStats s;
      s.name = annotation.name;
      s.wall_us = annotation.duration_us;
      profile.steps.push_back(std::move(s));
    }
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
      const GpuActivity& a = trace.activities[i];
      if (a.device != profile.device) continue;
      const auto launch = trace.launch_time_us.find(a.correlation);
      const double t = launch != trace.launch_time_us.end() ? launch->second : a.start_us;
      const long step = step_containing(trace.steps, t);
      if (step < 0) {
        ++profile.activities_outside_steps;
        continue;
      }
      profile.steps[static_cast<std::size_t>(step)].activities.push_back(i);
    }
    for (auto& s : profile.steps) fill_step_timing(trace, s);
  }

  std::vector<double> busy;
  for (const auto& s : profile.steps) busy.push_back(s.gpu_busy_us);
  const std::vector<bool> warmup = warmup_steps(busy);
  for (std::size_t i = 0; i < profile.steps.size(); ++i) profile.steps[i].warmup = warmup[i];
  profile.warmup_rule =
      profile.steps.size() < 3
          ? "none dropped (fewer than 3 steps)"
          : "first step, then leading steps whose GPU busy time is > 25% from the median of later steps";

  for (auto& s : profile.steps) s.step_us = std::max(s.wall_us, s.gpu_busy_us);
  std::vector<double> walls, step_times, busies;
  const auto steady = profile.steady_steps();
  for (const StepStats* s : steady) {
    walls.push_back(s->wall_us);
    step_times.push_back(s->step_us);
    busies.push_back(s->gpu_busy_us);
    for (std::size_t c = 0; c < s->by_class.size(); ++c) {
      profile.mean_by_class[c].count += s->by_class[c].count;
      profile.mean_by_class[c].time_us += s->by_class[c].time_us;
    }
  }
  const double n = static_cast<double>(steady.size());
  for (auto& c : profile.mean_by_class) {
    c.count = static_cast<std::int64_t>(std::llround(static_cast<double>(c.count) / n));
    c.time_us /= n;
  }
  profile.wall = summarize(walls);
  profile.step = summarize(step_times);
  profile.gpu_busy = summarize(busies);
  return profile;
}

}  // namespace spotsim

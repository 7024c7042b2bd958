#pragma once
// Per-training-step statistics of a Kineto trace: wall time, GPU busy time (union of activity intervals on the
// rank's GPU), and time and count per kernel class; then the steady state over steps with warm-up dropped.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/statistics.hpp"
#include "steptime/kineto_trace.hpp"

namespace spotsim {

struct ClassTotals {
  std::int64_t count = 0;
  double time_us = 0.0;  // sum of durations (streams may overlap, so the classes can add up to > busy time)
};

struct StepStats {
  std::string name;
  double wall_us = 0.0;      // the ProfilerStep#N annotation's duration (CPU side)
  double gpu_busy_us = 0.0;  // union of the step's activity intervals on the main device
  double gpu_span_us = 0.0;  // first activity start to last activity end
  // max(wall, busy): while the CPU runs ahead of a GPU-bound job (first steps), the annotation is shorter than
  // the GPU work the step launched; the sustained step time is bounded below by that work.
  double step_us = 0.0;
  std::array<ClassTotals, kKernelClassCount> by_class{};
  std::vector<std::size_t> activities;  // indices into KinetoTrace::activities
  bool warmup = false;
};

struct StepProfile {
  int device = 0;                        // the main device the statistics are about
  bool whole_trace_is_one_step = false;  // no ProfilerStep#N annotation in the trace
  std::vector<StepStats> steps;
  std::size_t activities_outside_steps = 0;
  std::string warmup_rule;  // how warm-up steps were chosen, for the report
  // Over steady-state (non-warm-up) steps:
  Summary wall;
  Summary step;  // of StepStats::step_us
  Summary gpu_busy;
  std::array<ClassTotals, kKernelClassCount> mean_by_class{};  // count and time per step, averaged

  std::vector<const StepStats*> steady_steps() const;
};

// A kernel belongs to the step during which the CPU launched it (found through its correlation id), not the
// step during which it ran: the GPU lags the CPU, so kernels of step N often run inside step N+1's wall window.
StepProfile build_step_profile(const KinetoTrace& trace);

// Warm-up rule (docs/step-time.md#steady-state): with three or more steps, the first is always warm-up (the
// profiler's first active step carries its start-up and the CPU runs ahead of an idle GPU); further leading
// steps are warm-up while their GPU busy time is more than `tolerance` away from the median of the steps
// after them. Returns, per step, whether it is warm-up.
std::vector<bool> warmup_steps(const std::vector<double>& busy_per_step, double tolerance = 0.25);

}  // namespace spotsim

#include "steptime/data_parallel_trace.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "steptime/interval_union.hpp"

namespace spotsim {

namespace {

struct StepParts {
  std::vector<Interval> compute, backward, communication, all;
  double communication_sum_us = 0, gradient_communication_us = 0;
  int communication_kernels = 0;
  std::vector<Interval> gradient_communication;  // communication kernels launched from the backward thread
};

// The thread that opened the ProfilerStep ranges (the Python main thread), or -1 when the trace does not say.
std::int64_t main_thread_of(const KinetoTrace& trace) {
  for (const auto& s : trace.steps) {
    if (s.thread >= 0) return s.thread;
  }
  return -1;
}

StepParts split_step(const KinetoTrace& trace, const StepStats& step, std::int64_t main_thread) {
  StepParts parts;
  for (const std::size_t i : step.activities) {
    const GpuActivity& a = trace.activities[i];
    const Interval interval{a.start_us, a.start_us + a.duration_us};
    const auto thread = trace.launch_thread.find(a.correlation);
    const bool from_backward = main_thread >= 0 && thread != trace.launch_thread.end() && thread->second != main_thread;
    parts.all.push_back(interval);
    if (a.kind.kernel_class == KernelClass::Communication) {
      parts.communication.push_back(interval);
      parts.communication_sum_us += a.duration_us;
      ++parts.communication_kernels;
      if (from_backward) {
        parts.gradient_communication_us += a.duration_us;
        parts.gradient_communication.push_back(interval);
      }
    } else {
      parts.compute.push_back(interval);
      if (from_backward) parts.backward.push_back(interval);
    }
  }
  return parts;
}

// Length of the part of `intervals` after `from`.
double union_after(std::vector<Interval> intervals, double from) {
  for (auto& i : intervals) i.start = std::max(i.start, from);
  return union_length(intervals);
}

// Duration-weighted mean, over the gradient communication kernels, of the share of backward compute still to run
// when each starts: 1 when every bucket is sent as backward begins, 0 when the all-reduce follows backward. A
// bucket-by-bucket DDP run (ResNet-50: 5 buckets spread over backward) lands in between, which charges the last
// buckets' exposure without modelling buckets.
double hideable_share(const StepParts& parts, double backward_us) {
  double weighted = 0, total = 0;
  for (const Interval& c : parts.gradient_communication) {
    const double duration = c.end - c.start;
    weighted += duration * union_after(parts.backward, c.start) / backward_us;
    total += duration;
  }
  return total > 0 ? weighted / total : 0.0;
}

}  // namespace

DataParallelMeasurement measure_data_parallel(const KinetoTrace& trace, const StepProfile& profile) {
  DataParallelMeasurement m;
  const std::int64_t main_thread = main_thread_of(trace);
  const auto steady = profile.steady_steps();
  double overlap_sum = 0;
  int overlap_steps = 0;
  for (const StepStats* s : steady) {
    StepParts parts = split_step(trace, *s, main_thread);
    const double busy = union_length(parts.all);
    const double compute = union_length(parts.compute);
    const double communication = union_length(parts.communication);
    const double backward = union_length(parts.backward);
    m.step_ms += s->step_us / 1e3;
    m.busy_ms += busy / 1e3;
    m.compute_ms += compute / 1e3;
    m.backward_ms += backward / 1e3;
    m.communication_ms += parts.communication_sum_us / 1e3;
    m.gradient_communication_ms += parts.gradient_communication_us / 1e3;
    m.collectives += static_cast<double>(parts.gradient_communication.empty() ? parts.communication_kernels
                                                                              : parts.gradient_communication.size());
    // |C ∪ N| = |C| + |N| - |C ∩ N|: the communication union that runs beside compute.
    m.overlapped_ms += (compute + communication - busy) / 1e3;
    m.exposed_ms += (busy - compute) / 1e3;
    if (backward > 0 && parts.gradient_communication_us > 0) {
      overlap_sum += hideable_share(parts, backward);
      ++overlap_steps;
    }
  }
  m.steps = static_cast<int>(steady.size());
  if (m.steps == 0) return m;
  const double n = m.steps;
  for (double* v : {&m.step_ms, &m.busy_ms, &m.compute_ms, &m.backward_ms, &m.communication_ms,
                    &m.gradient_communication_ms, &m.overlapped_ms, &m.exposed_ms, &m.collectives}) {
    *v /= n;
  }
  m.host_ms = std::max(0.0, m.step_ms - m.busy_ms);
  m.backward_measured = m.backward_ms > 0;
  if (!m.backward_measured) m.backward_ms = kAssumedBackwardShare * m.compute_ms;
  if (overlap_steps > 0) {
    m.overlap = overlap_sum / overlap_steps;
    m.overlap_basis =
        "measured: share of backward compute still to run when each gradient communication kernel starts, weighted by "
        "its time";
  } else if (m.communication_ms > 0) {
    m.overlap = 0.0;
    m.overlap_basis = "measured: no communication launched from the backward pass (collectives run after it)";
  }
  return m;
}

DataParallelProfile data_parallel_profile(const DataParallelMeasurement& m, double gradient_bytes, double compute_scale,
                                          double default_overlap) {
  DataParallelProfile p;
  p.compute_ms = m.compute_ms * compute_scale;
  p.backward_ms = m.backward_ms * compute_scale;
  p.host_ms = m.host_ms;
  p.gradient_bytes = gradient_bytes;
  p.overlap = m.overlap.value_or(default_overlap);
  p.collectives = m.collectives >= 1.0 ? m.collectives : ddp_bucket_count(gradient_bytes);
  return p;
}

DataParallelProfile assumed_data_parallel_profile(double step_ms, double gradient_bytes, double overlap) {
  DataParallelProfile p;
  p.compute_ms = step_ms;
  p.backward_ms = kAssumedBackwardShare * step_ms;
  p.gradient_bytes = gradient_bytes;
  p.overlap = overlap;
  p.collectives = ddp_bucket_count(gradient_bytes);
  return p;
}

}  // namespace spotsim

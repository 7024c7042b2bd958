#include "steptime/host_time.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "steptime/interval_union.hpp"
#include "steptime/report_cells.hpp"

namespace spotsim {

namespace {

StepTimeBreakdown breakdown_of(const KinetoTrace& trace, const StepStats& step) {
  std::vector<Interval> all, compute, communication;
  for (std::size_t i : step.activities) {
    const GpuActivity& a = trace.activities[i];
    const Interval interval{a.start_us, a.start_us + a.duration_us};
    all.push_back(interval);
    (a.kind.kernel_class == KernelClass::Communication ? communication : compute).push_back(interval);
  }
  StepTimeBreakdown b;
  b.step = step.name;
  b.warmup = step.warmup;
  b.step_us = step.step_us;
  const double busy = union_length(all);
  b.compute_us = union_length(compute);
  b.exposed_communication_us = std::max(0.0, busy - b.compute_us);
  b.overlapped_communication_us = std::max(0.0, union_length(communication) - b.exposed_communication_us);
  b.host_gap_us = std::max(0.0, step.step_us - busy);
  return b;
}

nlohmann::json step_json(const StepTimeBreakdown& b) {
  return {{"step", b.step},
          {"warmup", b.warmup},
          {"step_ms", b.step_us / 1000.0},
          {"compute_ms", b.compute_us / 1000.0},
          {"exposed_communication_ms", b.exposed_communication_us / 1000.0},
          {"overlapped_communication_ms", b.overlapped_communication_us / 1000.0},
          {"host_gap_ms", b.host_gap_us / 1000.0}};
}

}  // namespace

HostScaling parse_host_scaling(const std::string& text, const std::string& what) {
  if (text == "fixed") return HostScaling::Fixed;
  if (text == "per-sample") return HostScaling::PerSample;
  throw InputError(what + ": expected fixed or per-sample, got '" + text + "'");
}

std::string to_string(HostScaling s) { return s == HostScaling::Fixed ? "fixed" : "per-sample"; }

HostTimeBreakdown host_time_breakdown(const KinetoTrace& trace, const StepProfile& profile) {
  HostTimeBreakdown out;
  out.steady_mean.step = "steady-state mean";
  std::size_t steady = 0;
  for (const StepStats& step : profile.steps) {
    out.steps.push_back(breakdown_of(trace, step));
    if (step.warmup) continue;
    const StepTimeBreakdown& b = out.steps.back();
    ++steady;
    out.steady_mean.step_us += b.step_us;
    out.steady_mean.compute_us += b.compute_us;
    out.steady_mean.exposed_communication_us += b.exposed_communication_us;
    out.steady_mean.overlapped_communication_us += b.overlapped_communication_us;
    out.steady_mean.host_gap_us += b.host_gap_us;
  }
  if (steady > 0) {
    const double n = static_cast<double>(steady);
    StepTimeBreakdown& m = out.steady_mean;
    m.step_us /= n;
    m.compute_us /= n;
    m.exposed_communication_us /= n;
    m.overlapped_communication_us /= n;
    m.host_gap_us /= n;
  }
  return out;
}

std::string format_host_time(const HostTimeBreakdown& breakdown) {
  std::ostringstream out;
  out << "\nwhere the step goes (compute + exposed communication + host gap = step):\n"
      << pad_cell("step", 20, true) << pad_cell("step ms", 10) << pad_cell("compute", 10) << pad_cell("comm", 10)
      << pad_cell("(hidden)", 10) << pad_cell("host gap", 10) << pad_cell("host %", 8) << "\n";
  const auto row = [&](const StepTimeBreakdown& b) {
    out << pad_cell(b.step + (b.warmup ? " (w)" : ""), 20, true) << pad_cell(ms_cell(b.step_us), 10)
        << pad_cell(ms_cell(b.compute_us), 10) << pad_cell(ms_cell(b.exposed_communication_us), 10)
        << pad_cell(ms_cell(b.overlapped_communication_us), 10) << pad_cell(ms_cell(b.host_gap_us), 10)
        << pad_cell(format_fixed(b.step_us > 0 ? 100.0 * b.host_gap_us / b.step_us : 0.0, 1), 8) << "\n";
  };
  for (const StepTimeBreakdown& b : breakdown.steps) row(b);
  row(breakdown.steady_mean);
  out << "comm = communication with no compute beside it; (hidden) = communication overlapped with compute; host gap "
         "= no GPU activity (CPU-bound: data loading, Python, launches), kept unchanged on a faster GPU\n";
  return out.str();
}

nlohmann::json host_time_json(const HostTimeBreakdown& breakdown) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepTimeBreakdown& b : breakdown.steps) steps.push_back(step_json(b));
  return {{"steps", steps}, {"steady_state_mean", step_json(breakdown.steady_mean)}};
}

}  // namespace spotsim

#pragma once
// Where a training step's time goes (docs/step-time.md#host-time): GPU compute, communication not hidden behind
// compute, and host gaps -- time in the step when no activity runs on the GPU because it waits on the CPU (data
// loading, Python, kernel launches, a host synchronisation). The three add up to the step time:
//
//   compute       = |union of the step's non-communication activity intervals|
//   exposed comm  = |union of all its activity intervals| - compute   (NCCL time with no compute beside it)
//   host gap      = step time - |union of all its activity intervals|  (step time = max(wall, busy))
//
// They scale differently: compute with the GPU (and the precision), communication with the link, host gaps with
// neither (only a faster CPU, or fewer steps per sample with a larger batch, shortens them).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "steptime/kineto_trace.hpp"
#include "steptime/step_profile.hpp"

namespace spotsim {

// `--host-scaling`: how the host gap carries over to the target. Fixed: the same time per step (the default; a
// faster GPU does not shorten CPU work). PerSample: proportional to the per-GPU batch (a data loader that
// decodes each sample on the CPU), for predictions at another batch size.
enum class HostScaling { Fixed, PerSample };

// Throws InputError naming `what` unless `text` is fixed or per-sample.
HostScaling parse_host_scaling(const std::string& text, const std::string& what);
std::string to_string(HostScaling s);

struct StepTimeBreakdown {
  std::string step;
  bool warmup = false;
  double step_us = 0.0;
  double compute_us = 0.0;
  double exposed_communication_us = 0.0;
  double overlapped_communication_us = 0.0;  // communication running beside compute (hidden)
  double host_gap_us = 0.0;
};

struct HostTimeBreakdown {
  std::vector<StepTimeBreakdown> steps;
  StepTimeBreakdown steady_mean;  // mean over the steady-state steps; step = "steady-state mean"
};

HostTimeBreakdown host_time_breakdown(const KinetoTrace& trace, const StepProfile& profile);
// Text table for `spotsim steptime` and the JSON object written by --breakdown-out.
std::string format_host_time(const HostTimeBreakdown& breakdown);
nlohmann::json host_time_json(const HostTimeBreakdown& breakdown);

}  // namespace spotsim

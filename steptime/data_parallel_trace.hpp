#pragma once
// What a trace says about a data-parallel step (docs/step-time.md#data-parallel): compute, host gap, backward
// compute, and how the communication kernels (NCCL) sat beside the compute kernels.
//
// Backward kernels are found by the CPU thread that launched them: PyTorch's autograd engine runs the backward
// pass on its own thread per device, while the forward pass and the optimizer run on the thread that opens the
// ProfilerStep#N ranges. Gradient communication is the communication launched from that backward thread (DDP's
// reducer hooks); collectives launched from the main thread (embedding all-to-alls, an all-reduce after
// backward) cannot hide behind backward compute.
#include <optional>
#include <string>

#include "steptime/data_parallel_step.hpp"
#include "steptime/kineto_trace.hpp"
#include "steptime/step_profile.hpp"

namespace spotsim {

// When a trace does not separate the backward pass, it is taken as 2/3 of the compute: backward costs two
// forward passes (input and weight gradients; Kaplan et al., "Scaling Laws for Neural Language Models", 2020,
// §2.1: 6N FLOPs per token of which 2N forward). The V100 ResNet-50 trace measures 0.67.
inline constexpr double kAssumedBackwardShare = 2.0 / 3.0;

// Per steady-state step, averaged (ms).
struct DataParallelMeasurement {
  int steps = 0;
  double step_ms = 0;      // StepProfile's step time (max(wall, busy))
  double busy_ms = 0;      // union of all GPU activity
  double compute_ms = 0;   // union of everything but communication kernels
  double host_ms = 0;      // step - busy
  double backward_ms = 0;  // union of backward compute; kAssumedBackwardShare x compute when not measured
  bool backward_measured = false;
  double communication_ms = 0;           // sum of communication kernel durations
  double overlapped_ms = 0;              // communication time during which compute kernels run on other streams
  double exposed_ms = 0;                 // busy - compute: time when only communication runs
  double gradient_communication_ms = 0;  // communication launched from the backward thread
  // Collectives per step: the gradient communication kernels (NCCL runs one kernel per collective), or every
  // communication kernel when none was launched from the backward thread; 0 when the trace has none.
  double collectives = 0;
  // What the all-reduce could hide behind in this run, as a share of backward: the mean, weighted by kernel time,
  // of the share of backward compute still to run when each gradient communication kernel starts. Empty when
  // the trace has no gradient communication.
  std::optional<double> overlap;
  std::string overlap_basis;  // how `overlap` was found, for the report
};

DataParallelMeasurement measure_data_parallel(const KinetoTrace& trace, const StepProfile& profile);

// The profile of one GPU for the step-time model: compute and backward scaled by `compute_scale` (predicted /
// measured compute time on a target GPU, 1 on the measured one), the measured host gap, the measured overlap or
// `default_overlap` when the trace has none, the gradient size, and the collectives per step: measured, else
// DDP's default buckets for that size (ddp_bucket_count).
DataParallelProfile data_parallel_profile(const DataParallelMeasurement& m, double gradient_bytes, double compute_scale,
                                          double default_overlap);

// The profile of a job known only by its step time on one GPU and its gradients (no trace: a campaign's job stream,
// docs/campaign.md#communication): compute = the step, no host gap, backward kAssumedBackwardShare of it, the
// collectives of DDP's default buckets for that size, and `overlap` (1 for DDP, as a trace without gradient
// communication gets).
DataParallelProfile assumed_data_parallel_profile(double step_ms, double gradient_bytes, double overlap);

}  // namespace spotsim

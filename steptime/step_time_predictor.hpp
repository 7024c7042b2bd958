#pragma once
// Predicts how long a measured kernel takes on another GPU (docs/step-time.md#model). Each kernel keeps its
// measured time and is rescaled by the ratio of the rates that bound it on the two GPUs:
//
//   t_target = t_measured * (R_measured / R_target) * (U_measured / U_target)
//
// R is the achieved rate: datasheet peak x calibrated achieved fraction, in FLOP/s of the kernel's precision
// for matrix/convolution kernels and in bytes/s for memory-bound ones. This is the "wave scaling" of Habitat
// (Yu et al., USENIX ATC'21), whose memory-boundness exponent γ is taken here as 1 for memory-bound classes
// and 0 for matrix kernels (a trace carries no arithmetic intensity), with achieved rather than peak rates.
// U is the wave efficiency B / (ceil(B / W) * W) of a grid of B thread blocks on a GPU that runs W blocks at
// once (SMs x resident blocks per SM): the ceil(B / W) wave count of Habitat's wave scaling and of NeuSight's
// tile/wave model (Lee et al., ASPLOS'25). Communication kernels keep their time unless link bandwidths are
// given. Kernels of operators whose dimensions the trace recorded (aten::mm, bmm, layer norm, softmax; fp32)
// are instead predicted a whole op at a time by the op-level efficiency model (op_efficiency_model.hpp).
#include <array>
#include <optional>
#include <string>

#include "steptime/execution_recipe.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/host_time.hpp"
#include "steptime/kineto_trace.hpp"
#include "steptime/precision_model.hpp"
#include "steptime/step_profile.hpp"

namespace spotsim {

// Which FP32 matrix kernels run on TF32 tensor cores on a GPU that has them. PyTorch's defaults since 1.12:
// cuDNN convolutions yes (torch.backends.cudnn.allow_tf32 = True), matmuls no
// (torch.backends.cuda.matmul.allow_tf32 = False).
enum class Tf32Policy { ConvolutionsOnly, All, Off };

struct PredictionOptions {
  Tf32Policy tf32 = Tf32Policy::ConvolutionsOnly;
  std::optional<double> measured_link_gbps;  // both set: communication scales by measured / target
  std::optional<double> target_link_gbps;
  // --precision (precision_model.hpp): how the target run trains. Unset = as recorded (matrix kernels keep
  // their precision, `tf32` deciding FP32 ones) and activations keep their width: the model before the flag.
  std::optional<TrainingPrecision> precision;
  // Per-GPU batch on the target / batch of the trace. Batch-proportional kernels (scales_with_batch) scale
  // linearly by it, convolutions on a GPU with a measured batch curve also by the change in time per sample
  // (gpu_spec_table.hpp: ConvolutionBatchCurve); the host gap scales by it only under PerSample.
  double batch_scale = 1.0;
  // The trace's per-GPU batch (--batch), where the convolution curves are read; unset = kConvolutionReferenceBatch
  // for the FP16 speed-up, and linear batch scaling.
  std::optional<double> trace_batch;
  HostScaling host_scaling = HostScaling::Fixed;
  // --layout / --fuse-norm-activation (execution_recipe.hpp): kernels the target run drops or fuses.
  ExecutionRecipe recipe;
};

// Precision a matrix kernel measured in `measured` runs in on `target`.
Precision target_precision(Precision measured, KernelFamily family, const GpuSpec& target, Tf32Policy policy);
// Precision a matrix kernel runs in on `target` under `options`: the --precision one when given (the GPU must
// support it: require_precision_supported), else target_precision().
Precision matrix_target_precision(const GpuActivity& a, Precision measured, const GpuSpec& target,
                                  const PredictionOptions& options);
// Thread blocks of `a` resident on one SM of `gpu` at once (at least 1).
int resident_blocks_per_sm(const GpuActivity& a, const GpuSpec& gpu);
// B / (ceil(B / W) * W); 1 when the grid is unknown.
double wave_efficiency(const GpuActivity& a, const GpuSpec& gpu);

double predict_kernel_time_us(const GpuActivity& a, const GpuSpec& measured, const GpuSpec& target,
                              const PredictionOptions& options);

struct StepPrediction {
  std::string target;
  double measured_kernel_sum_us = 0.0;  // per steady-state step
  double predicted_kernel_sum_us = 0.0;
  std::array<double, kKernelClassCount> measured_by_class_us{};
  std::array<double, kKernelClassCount> predicted_by_class_us{};
  double measured_busy_us = 0.0;
  double predicted_busy_us = 0.0;     // busy scaled like the kernel sum (stream overlap kept proportional)
  double measured_host_gap_us = 0.0;  // step - busy on the measured GPU: time the GPU waits on the host
  double host_gap_us = 0.0;           // on the target: the measured gap (GPU-independent), x batch_scale if per-sample
  double predicted_step_us = 0.0;     // host gap + predicted busy
  std::optional<TrainingPrecision> precision;  // --precision, if given
  double batch_scale = 1.0;
  std::optional<double> trace_batch;  // PredictionOptions::trace_batch
  // Measured kernel time per step predicted by the op-level model (kernels of operators with recorded
  // dimensions, op_efficiency_model.hpp); the rest is scaled kernel by kernel.
  double measured_by_op_model_us = 0.0;

  double predicted_compute_us() const;  // everything but communication
  double measured_compute_us() const;
};

StepPrediction predict_step(const KinetoTrace& trace, const StepProfile& profile, const GpuSpec& measured,
                            const GpuSpec& target, const PredictionOptions& options);

// The GPUs a prediction covers, in order: the measured GPU first (predicted on itself), then each target once.
// The measured GPU is left out when --precision needs tensor cores it lacks (a V100 trace predicted for TF32 on an
// A100), unless it is a target itself (then the prediction refuses, naming it) or there are no targets.
std::vector<const GpuSpec*> gpus_to_predict(const GpuSpec& measured, const std::vector<const GpuSpec*>& targets,
                                            const PredictionOptions& options);

// The GPU a trace was recorded on, from its deviceProperties (or `override_name` if non-empty). Throws
// InputError naming the trace for an AMD/ROCm trace (the model's fractions are calibrated on NVIDIA GPUs
// only) and for an NVIDIA GPU missing from the spec table.
const GpuSpec& measured_gpu_of(const KinetoTrace& trace, const std::string& override_name);

}  // namespace spotsim

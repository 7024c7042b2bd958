#include "steptime/step_time_predictor.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/errors.hpp"
#include "steptime/op_efficiency_model.hpp"

namespace spotsim {

namespace {

// cuBLAS/cuDNN SGEMM and implicit-GEMM tiles use 128-255 registers per thread, so matrix kernels are
// register-limited; used only when a trace (or table) does not record registers per thread.
constexpr int kAssumedMatrixRegistersPerThread = 128;

double memory_fraction(const GpuSpec& gpu, KernelFamily family) {
  switch (family) {
    case KernelFamily::Normalization: return gpu.achieved.normalization;
    case KernelFamily::Reduction: return gpu.achieved.reduction;
    default: return gpu.achieved.elementwise;
  }
}

// Achieved bytes/s (memory-bound) or FLOP/s (matrix) up to a common unit: only ratios are used.
double matrix_rate(const GpuSpec& gpu, Precision p) {
  return gpu.peak(p) * gpu.achieved.matrix[static_cast<std::size_t>(p)];
}

// A convolution on FP16 tensor cores of a GPU where DeepBench measured ResNet-50's convolutions in both
// precisions runs at the FP32 rate x the speed-up measured at the trace's batch (gpu_spec_table.hpp:
// ConvolutionBatchCurve); elsewhere at the matrix rate.
double convolution_aware_matrix_rate(const GpuSpec& gpu, Precision p, KernelFamily family, double trace_batch) {
  const ConvolutionBatchCurve& curve = gpu.achieved.convolution;
  if (family == KernelFamily::Convolution && p == Precision::FP16 && curve.measured()) {
    return matrix_rate(gpu, Precision::FP32) * curve.fp16_speedup_at(trace_batch);
  }
  return matrix_rate(gpu, p);
}

// The precision a matrix kernel was recorded in, as far as the measured GPU has it (else FP32), and the one it runs
// in on the target.
std::pair<Precision, Precision> matrix_precisions(const GpuActivity& a, const GpuSpec& measured, const GpuSpec& target,
                                                  const PredictionOptions& options) {
  const Precision from = measured.supports(a.kind.precision) ? a.kind.precision : Precision::FP32;
  return {from, matrix_target_precision(a, from, target, options)};
}

// A convolution's time from the trace's batch to the target's: linear in the samples, times the change in time
// per sample that the target GPU's measured curve gives (fixed costs spread over more samples); linear alone
// where the GPU has no curve or the trace's batch is not known.
double batch_factor(const GpuActivity& a, const GpuSpec& measured, const GpuSpec& target,
                    const PredictionOptions& options) {
  const ConvolutionBatchCurve& curve = target.achieved.convolution;
  if (a.kind.kernel_class != KernelClass::Matrix || a.kind.family != KernelFamily::Convolution || !curve.measured() ||
      !options.trace_batch || options.batch_scale == 1.0) {
    return options.batch_scale;
  }
  const double from = *options.trace_batch, to = from * options.batch_scale;
  const bool fp16 = matrix_precisions(a, measured, target, options).second == Precision::FP16;
  return options.batch_scale * curve.per_sample_ratio(fp16, from, to);
}

double memory_rate(const GpuSpec& gpu, KernelFamily family) {
  return gpu.memory_bandwidth_gbps * memory_fraction(gpu, family);
}

// Whether a kernel launched by an operator with recorded dimensions can be predicted as part of that op by the
// op-level model, which is calibrated on fp32 ops: a matrix kernel must stay on fp32 CUDA cores on both GPUs.
// Copies and communication are never part of it.
bool predicted_with_its_op(const GpuActivity& a, const GpuSpec& target, const PredictionOptions& options) {
  switch (a.kind.kernel_class) {
    case KernelClass::Matrix:
      return a.kind.precision == Precision::FP32 &&
             matrix_target_precision(a, Precision::FP32, target, options) == Precision::FP32;
    case KernelClass::MemoryBound:
    case KernelClass::Other: return true;
    default: return false;
  }
}

// Per operator with recorded dimensions: predicted / measured time of its kernels in the steady steps, or NAN
// where the op-level model does not apply (a kernel it cannot take, or no model for a GPU).
std::vector<double> op_scale_factors(const KinetoTrace& trace, const std::vector<const StepStats*>& steady,
                                     const GpuSpec& measured, const GpuSpec& target, const PredictionOptions& options) {
  std::vector<double> measured_us(trace.ops.size(), 0.0);
  std::vector<bool> usable(trace.ops.size(), true);
  for (const StepStats* step : steady) {
    for (std::size_t i : step->activities) {
      const GpuActivity& a = trace.activities[i];
      if (a.op < 0) continue;
      const auto op = static_cast<std::size_t>(a.op);
      if (predicted_with_its_op(a, target, options))
        measured_us[op] += a.duration_us;
      else if (a.kind.kernel_class == KernelClass::Matrix)
        usable[op] = false;
    }
  }
  std::vector<double> factors(trace.ops.size(), NAN);
  for (std::size_t op = 0; op < trace.ops.size(); ++op) {
    if (!usable[op] || measured_us[op] <= 0.0) continue;
    factors[op] = predict_op_time_us(trace.ops[op], measured_us[op], measured, target) / measured_us[op];
  }
  return factors;
}

}  // namespace

Precision matrix_target_precision(const GpuActivity& a, Precision measured, const GpuSpec& target,
                                  const PredictionOptions& options) {
  if (options.precision) {
    require_precision_supported(target, *options.precision, "--precision");
    return matrix_precision(*options.precision);
  }
  return target_precision(measured, a.kind.family, target, options.tf32);
}

Precision target_precision(Precision measured, KernelFamily family, const GpuSpec& target, Tf32Policy policy) {
  switch (measured) {
    case Precision::FP32: {
      const bool tf32 =
          policy == Tf32Policy::All || (policy == Tf32Policy::ConvolutionsOnly && family == KernelFamily::Convolution);
      return tf32 && target.supports(Precision::TF32) ? Precision::TF32 : Precision::FP32;
    }
    case Precision::TF32: return target.supports(Precision::TF32) ? Precision::TF32 : Precision::FP32;
    case Precision::BF16:  // no bf16 tensor-core path before Ampere: PyTorch falls back to fp32 arithmetic
      return target.supports(Precision::BF16) ? Precision::BF16 : Precision::FP32;
    case Precision::FP16: return target.supports(Precision::FP16) ? Precision::FP16 : Precision::FP32;
  }
  return Precision::FP32;
}

int resident_blocks_per_sm(const GpuActivity& a, const GpuSpec& gpu) {
  const int threads = std::max(a.block_threads, 1);
  int blocks = std::min(gpu.max_blocks_per_sm, gpu.max_threads_per_sm / threads);
  int registers = a.registers_per_thread;
  if (registers <= 0 && a.kind.kernel_class == KernelClass::Matrix) registers = kAssumedMatrixRegistersPerThread;
  if (registers > 0) blocks = std::min(blocks, gpu.registers_per_sm / (registers * threads));
  if (a.shared_memory_bytes > 0) blocks = std::min(blocks, gpu.shared_memory_per_sm_bytes / a.shared_memory_bytes);
  return std::max(blocks, 1);
}

double wave_efficiency(const GpuActivity& a, const GpuSpec& gpu) {
  if (a.grid_blocks <= 0) return 1.0;
  const double wave = static_cast<double>(gpu.sms) * resident_blocks_per_sm(a, gpu);
  const double blocks = static_cast<double>(a.grid_blocks);
  return blocks / (std::ceil(blocks / wave) * wave);
}

double predict_kernel_time_us(const GpuActivity& a, const GpuSpec& measured, const GpuSpec& target,
                              const PredictionOptions& options) {
  const double t = a.duration_us;
  double rate_ratio = 1.0;  // R_measured / R_target
  bool wave_scaled = true;
  switch (a.kind.kernel_class) {
    case KernelClass::Communication:
      if (options.measured_link_gbps && options.target_link_gbps)
        return t * *options.measured_link_gbps / *options.target_link_gbps;
      return t;
    case KernelClass::MemcpyMemset:
      if (a.host_transfer) return t;  // PCIe/host bound: does not depend on the GPU's memory
      rate_ratio = memory_rate(measured, KernelFamily::Elementwise) / memory_rate(target, KernelFamily::Elementwise);
      wave_scaled = false;
      break;
    case KernelClass::Matrix: {
      const auto [from, to] = matrix_precisions(a, measured, target, options);
      const double batch = options.trace_batch.value_or(kConvolutionReferenceBatch);
      rate_ratio = convolution_aware_matrix_rate(measured, from, a.kind.family, batch) /
                   convolution_aware_matrix_rate(target, to, a.kind.family, batch);
      break;
    }
    case KernelClass::MemoryBound:
      rate_ratio = memory_rate(measured, a.kind.family) / memory_rate(target, a.kind.family);
      break;
    case KernelClass::Other:  // unrecognised kernels are mostly small helpers: treated as memory-bound
      rate_ratio = memory_rate(measured, KernelFamily::Elementwise) / memory_rate(target, KernelFamily::Elementwise);
      break;
  }
  const double wave_ratio = wave_scaled ? wave_efficiency(a, measured) / wave_efficiency(a, target) : 1.0;
  return t * rate_ratio * wave_ratio;
}

double StepPrediction::predicted_compute_us() const {
  return predicted_kernel_sum_us - predicted_by_class_us[static_cast<std::size_t>(KernelClass::Communication)];
}

double StepPrediction::measured_compute_us() const {
  return measured_kernel_sum_us - measured_by_class_us[static_cast<std::size_t>(KernelClass::Communication)];
}

StepPrediction predict_step(const KinetoTrace& trace, const StepProfile& profile, const GpuSpec& measured,
                            const GpuSpec& target, const PredictionOptions& options) {
  StepPrediction p;
  p.target = target.name;
  p.precision = options.precision;
  p.batch_scale = options.batch_scale;
  p.trace_batch = options.trace_batch;
  if (options.precision) require_precision_supported(target, *options.precision, "--precision");
  if (!(options.batch_scale > 0.0) || !std::isfinite(options.batch_scale)) {
    throw InputError("batch scale (target batch / trace batch) must be a finite number > 0");
  }
  if (options.trace_batch && !(*options.trace_batch > 0.0 && std::isfinite(*options.trace_batch))) {
    throw InputError("the trace's batch must be a finite number > 0");
  }
  const auto steady = profile.steady_steps();
  // Activation width in the trace and on the target: memory-bound kernels on activations move bytes in
  // proportion (precision_model.hpp). Without --precision nothing changes.
  double activation_ratio = 1.0;
  if (options.precision) {
    std::vector<std::size_t> all;
    for (const StepStats* step : steady) all.insert(all.end(), step->activities.begin(), step->activities.end());
    activation_ratio = activation_bytes(*options.precision) / activation_bytes(recorded_precision(trace, all));
  }
  // Kernels the target run drops or fuses (--layout, --fuse-norm-activation): a time factor per activity.
  std::vector<double> recipe_factor;
  if (options.recipe.changes_anything()) {
    recipe_factor.assign(trace.activities.size(), 1.0);
    for (const StepStats* step : steady) apply_execution_recipe(trace, step->activities, options.recipe, recipe_factor);
  }
  // On the GPU it was measured on, a kernel takes what it took: no model, not even the op-level blend.
  const bool same_gpu = measured.name == target.name;
  const std::vector<double> op_factor = same_gpu ? std::vector<double>(trace.ops.size(), NAN)
                                                 : op_scale_factors(trace, steady, measured, target, options);
  for (const StepStats* step : steady) {
    for (std::size_t i : step->activities) {
      const GpuActivity& a = trace.activities[i];
      const auto c = static_cast<std::size_t>(a.kind.kernel_class);
      const bool by_op = a.op >= 0 && std::isfinite(op_factor[static_cast<std::size_t>(a.op)]) &&
                         predicted_with_its_op(a, target, options);
      double predicted = by_op ? a.duration_us * op_factor[static_cast<std::size_t>(a.op)]
                               : predict_kernel_time_us(a, measured, target, options);
      if (activation_ratio != 1.0 && moves_activations(a, trace.name_of(a))) predicted *= activation_ratio;
      if (!recipe_factor.empty()) predicted *= recipe_factor[i];
      // Per-sample work: linear in the batch, and for convolutions on a GPU with a measured batch curve, with the
      // curve's fixed part spread over more samples (batch_factor). A wave-filling correction from the grids (a
      // partial wave of a small grid fills at a larger batch) was tried and rejected: it made V100 FP32 at
      // batch 112 23% faster per image than at 32, where NVIDIA's figures show 9% (docs/step-time.md#precision).
      if (options.batch_scale != 1.0 && scales_with_batch(a, trace.name_of(a))) {
        predicted *= batch_factor(a, measured, target, options);
      }
      p.measured_by_class_us[c] += a.duration_us;
      p.predicted_by_class_us[c] += predicted;
      if (by_op) p.measured_by_op_model_us += a.duration_us;
    }
  }
  const double n = static_cast<double>(std::max<std::size_t>(steady.size(), 1));
  p.measured_by_op_model_us /= n;
  for (std::size_t c = 0; c < p.measured_by_class_us.size(); ++c) {
    p.measured_by_class_us[c] /= n;
    p.predicted_by_class_us[c] /= n;
    p.measured_kernel_sum_us += p.measured_by_class_us[c];
    p.predicted_kernel_sum_us += p.predicted_by_class_us[c];
  }
  p.measured_busy_us = profile.gpu_busy.mean;
  p.predicted_busy_us =
      p.measured_kernel_sum_us > 0.0 ? p.measured_busy_us * p.predicted_kernel_sum_us / p.measured_kernel_sum_us : 0.0;
  p.measured_host_gap_us = std::max(0.0, profile.step.mean - profile.gpu_busy.mean);
  // The host gap is CPU time (data loading, Python, launches): a faster GPU does not shorten it.
  p.host_gap_us = p.measured_host_gap_us * (options.host_scaling == HostScaling::PerSample ? options.batch_scale : 1.0);
  p.predicted_step_us = p.host_gap_us + p.predicted_busy_us;
  return p;
}

const GpuSpec& measured_gpu_of(const KinetoTrace& trace, const std::string& override_name) {
  const TraceDevice* device = trace.main_device();
  if (device != nullptr && device->vendor == GpuVendor::Amd) {
    throw InputError(trace.path + ": recorded on an AMD GPU ('" + device->name +
                     "', ROCm); spotsim's scaling model "
                     "is calibrated on NVIDIA GPUs only, so it cannot predict other GPUs from this trace (the "
                     "per-step statistics above are still valid)");
  }
  if (!override_name.empty()) return one_gpu_or_throw(override_name, "--measured-gpu");
  if (device == nullptr) {
    throw InputError(trace.path + ": the trace has no deviceProperties entry for GPU " +
                     std::to_string(trace.main_device_id()) + "; give the GPU it was recorded on with --measured-gpu");
  }
  if (const GpuSpec* spec = match_device_name(device->name, device->total_memory_bytes)) return *spec;
  throw InputError(trace.path + ": GPU '" + device->name +
                   "' is not in the spec table; give the closest one with "
                   "--measured-gpu");
}

std::vector<const GpuSpec*> gpus_to_predict(const GpuSpec& measured, const std::vector<const GpuSpec*>& targets,
                                            const PredictionOptions& options) {
  std::vector<const GpuSpec*> gpus;
  const bool measured_is_target = std::find(targets.begin(), targets.end(), &measured) != targets.end();
  if (!options.precision || measured.supports(matrix_precision(*options.precision)) || targets.empty() ||
      measured_is_target) {
    gpus.push_back(&measured);
  }
  for (const GpuSpec* target : targets) {
    if (std::find(gpus.begin(), gpus.end(), target) == gpus.end()) gpus.push_back(target);
  }
  return gpus;
}

}  // namespace spotsim

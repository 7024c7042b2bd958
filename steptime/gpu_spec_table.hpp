#pragma once
// The GPUs spotsim can predict step times for: datasheet peaks (dense, no sparsity), per-SM occupancy limits,
// and the fraction of each peak real kernels achieve, calibrated from measured tables (docs/step-time.md).
// Committed in the repository (gpu_spec_table.cpp) with a source for every row; the simulator never needs the
// shared data at run time.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "steptime/kernel_classifier.hpp"

namespace spotsim {

// Fractions of datasheet peak that large kernels reach (median over a calibration set). A matrix fraction of 0
// means the GPU has no hardware path for that precision.
// How a GPU's convolutions speed up with the batch and on FP16 tensor cores, from DeepBench's ResNet-50 training
// convolutions measured at two batches in both precisions (efficiency_calibration.hpp): the time of the layers'
// passes is fitted as T(N) = a + b N per precision (a fixed part, launch, ramp-up and the last partial wave, and a
// per-sample part), through both measured batches. `h = a / b` is the batch at which the two parts are equal; the
// time per sample is then b (1 + h / N). All zero = not measured: convolutions use the matrix fraction and scale
// linearly with the batch.
struct ConvolutionBatchCurve {
  double fp16_speedup_large_batch = 0.0;  // b_fp32 / b_fp16: FP32 CUDA cores -> FP16 tensor cores, per sample
  double half_batch_fp32 = 0.0;           // h of FP32 convolutions (samples)
  double half_batch_fp16 = 0.0;           // h of FP16 tensor-core convolutions (samples)

  bool measured() const { return fp16_speedup_large_batch > 0.0; }
  // FP32 / FP16 time of the same convolutions at per-GPU batch `batch`.
  double fp16_speedup_at(double batch) const {
    return fp16_speedup_large_batch * (1.0 + half_batch_fp32 / batch) / (1.0 + half_batch_fp16 / batch);
  }
  // Time per sample at batch `to` / at batch `from`, for convolutions in `fp16` (else FP32) arithmetic.
  double per_sample_ratio(bool fp16, double from, double to) const {
    const double h = fp16 ? half_batch_fp16 : half_batch_fp32;
    return (1.0 + h / to) / (1.0 + h / from);
  }
};
// The batch a trace's convolutions are taken to run at when its batch is not given (--batch): the larger of the two
// DeepBench measured.
inline constexpr double kConvolutionReferenceBatch = 16.0;

struct AchievedFractions {
  std::array<double, 4> matrix{};  // indexed by Precision: FP32, TF32, FP16, BF16
  double elementwise = 0.0;
  double normalization = 0.0;
  double reduction = 0.0;
  // Convolutions on this GPU by batch and on FP16 tensor cores, measured on ResNet-50's own layers. cuDNN's
  // convolutions are not GEMM-shaped: the GEMM-derived fraction understates their FP16 speed-up.
  ConvolutionBatchCurve convolution;
};

struct GpuSpec {
  std::string name;                  // canonical, as trace zones name GPUs: "A100-40GB"
  std::vector<std::string> aliases;  // accepted spellings, compared case-insensitively
  std::string form_factor;           // "SXM4", "PCIe", ...
  int sms = 0;
  double memory_gb = 0.0;
  double memory_bandwidth_gbps = 0.0;   // GB/s (10^9 bytes)
  std::array<double, 4> peak_tflops{};  // dense, indexed by Precision; 0 = not supported (TF32/BF16 pre-Ampere)
  // Per-SM limits of the compute capability (CUDA C++ Programming Guide, "Technical Specifications per
  // Compute Capability"), for the number of thread blocks that run at once (one "wave").
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int registers_per_sm = 65536;
  int shared_memory_per_sm_bytes = 0;
  AchievedFractions achieved;
  std::string source;       // datasheet the peaks come from
  std::string calibration;  // where the achieved fractions come from

  double peak(Precision p) const { return peak_tflops[static_cast<std::size_t>(p)]; }
  bool supports(Precision p) const { return peak(p) > 0.0; }
};

const std::vector<GpuSpec>& gpu_spec_table();

// Looks up a canonical name or alias ("a100", "H100-80GB", "v100-16gb"); nullptr if unknown.
const GpuSpec* find_gpu_spec(const std::string& name);
// As find_gpu_spec, but throws InputError naming `what` and listing the known GPUs.
const GpuSpec& gpu_spec_or_throw(const std::string& name, const std::string& what);
// Every GPU a name given by a user may mean: the family it names, i.e. each GPU whose canonical name is the name
// or starts with it followed by '-' ("A100" -> A100-40GB, A100-40GB-PCIE, A100-80GB, A100-80GB-PCIE; "H100" ->
// H100, H100-PCIE), else the one GPU an alias names ("v100-16gb" -> V100); empty if unknown. For options that
// accept a set (advise --gpu).
std::vector<const GpuSpec*> gpus_of_family(const std::string& name);
// The one GPU a user-given name means, for options that need exactly one (steptime --target, --measured-gpu,
// trace --gpu): a canonical name ("A100-40GB", "H100"), else a family of exactly one, else an alias; nullptr if
// unknown. InputError naming `what` and listing the matches when the name is a family of several ("A100"): the
// "A100" alias of A100-40GB would otherwise silently pick the 40 GB part.
const GpuSpec* find_one_gpu(const std::string& name, const std::string& what);
// As find_one_gpu, but an unknown name is an InputError listing the known GPUs.
const GpuSpec& one_gpu_or_throw(const std::string& name, const std::string& what);
// Matches the device name a profiler or driver reports ("Tesla V100-SXM2-32GB", "NVIDIA A100-PG509-200",
// "NVIDIA A100 80GB PCIe"); `memory_bytes` (0 = unknown) tells 40 GB from 80 GB A100s. nullptr if unknown.
const GpuSpec* match_device_name(const std::string& device_name, double memory_bytes = 0.0);
// The canonical name for a GPU as written in a trace zone or job file, or the text itself if unknown.
std::string canonical_gpu_name(const std::string& name);

}  // namespace spotsim

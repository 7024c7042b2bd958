#pragma once
// The GPUs spotsim can predict step times for: datasheet peaks (dense, no sparsity), per-SM occupancy limits,
// and the fraction of each peak real kernels achieve, calibrated from measured tables (docs/step-time.md).
// Committed in the repository (gpu_spec_table.cpp) with a source for every row; the simulator never needs the
// shared data at run time.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/steptime/kernel_classifier.hpp"

namespace spotsim {

// Fractions of datasheet peak that large kernels reach (median over a calibration set). A matrix fraction of 0
// means the GPU has no hardware path for that precision.
struct AchievedFractions {
  std::array<double, 4> matrix{};  // indexed by Precision: FP32, TF32, FP16, BF16
  double elementwise = 0.0;
  double normalization = 0.0;
  double reduction = 0.0;
  // FP16 tensor-core / FP32 CUDA-core speed-up of convolutions on this GPU, measured on ResNet-50's own layers
  // (DeepBench training convolutions, efficiency_calibration.hpp); 0 = not measured, convolutions then use the
  // GEMM-derived matrix fraction. cuDNN's convolutions are not GEMM-shaped: the GEMM median understates them.
  double convolution_fp16_speedup = 0.0;
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

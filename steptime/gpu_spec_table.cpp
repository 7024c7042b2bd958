#include "steptime/gpu_spec_table.hpp"

#include <algorithm>
#include <cctype>

#include "base/errors.hpp"

// Tables of published and fitted figures, one row per GPU or kernel family, laid out by hand so that a row reads as
// a line of its source: clang-format leaves them alone.
// clang-format off
namespace spotsim {

namespace {

// Achieved fractions: produced by calibrate_achieved_fractions() (efficiency_calibration.cpp) on the
// calibration half of the NeuSight op tables and on DeepBench, and checked against it by
// tests/steptime/calibration_test.cpp. Values marked "assumed" have no measurement in those tables; see
// docs/step-time.md#calibration for each one.
// Tensor-core fraction where no table covers the GPU: the mean of the DeepBench medians over all GEMM shapes
// on V100 fp16 (0.322) and T4 fp16 (0.375). Large single GEMMs reach far more (H100 bf16 8192^3: 0.81), but a
// training step is made of typical, not peak, kernels.
constexpr double kAssumedTensorFraction = 0.35;
// Convolution batch curves (last field; gpu_spec_table.hpp): DeepBench's ResNet-50 training convolutions
// (forward, backward data, backward filter of 16 layer uses, n = 48 cells) at batches 8 and 16 in FP32 and FP16,
// fitted as T(N) = a + b N: {b_fp32 / b_fp16, a_fp32 / b_fp32, a_fp16 / b_fp16}. V100-PCIE takes the V100's (same
// chip). Not measured on Ampere and later: their convolutions use the tensor fraction and scale linearly.
constexpr ConvolutionBatchCurve kV100Convolutions{5.203, 4.426, 8.515};
constexpr ConvolutionBatchCurve kT4Convolutions{6.640, 1.461, 6.236};
constexpr int kKiB = 1024;

std::vector<GpuSpec> build_table() {
  std::vector<GpuSpec> t;
  // Peaks: fp32 (CUDA cores), tf32, fp16, bf16 tensor cores, dense.
  t.push_back({"T4", {"T4-16GB", "Tesla T4"}, "PCIe", 40, 16, 320, {8.1, 0, 65, 0}, 1024, 16, 65536, 64 * kKiB,
               {{0.450, 0, 0.375, 0}, 0.739, 0.515, 0.639, kT4Convolutions},
               "NVIDIA T4 datasheet (2019): 40 SMs, 320 GB/s, 8.1 TF fp32, 65 TF fp16 mixed precision",
               "fp32 and memory: NeuSight op tables (calibration half); fp16: DeepBench T4 GEMM median"});
  t.push_back({"V100", {"V100-16GB", "V100-32GB", "V100-SXM2", "Tesla V100"}, "SXM2", 80, 32, 900, {15.7, 0, 125, 0},
               2048, 32, 65536, 96 * kKiB, {{0.788, 0, 0.322, 0}, 0.906, 0.599, 0.626, kV100Convolutions},
               "NVIDIA V100 datasheet (2018): 80 SMs, 900 GB/s, 15.7 TF fp32, 125 TF tensor",
               "fp32 and fp16: DeepBench V100 GEMM medians; memory: NeuSight V100-PCIE (same HBM2)"});
  t.push_back({"V100-PCIE", {"V100-PCIE-32GB", "V100-PCIE-16GB"}, "PCIe", 80, 32, 900, {14.0, 0, 112, 0}, 2048, 32,
               65536, 96 * kKiB, {{0.923, 0, 0.322, 0}, 0.906, 0.599, 0.626, kV100Convolutions},
               "NVIDIA V100 datasheet (2018), PCIe column: 14 TF fp32, 112 TF tensor, 900 GB/s",
               "fp32 and memory: NeuSight op tables (calibration half); fp16: DeepBench V100 fraction"});
  t.push_back({"A100-40GB", {"A100", "A100-SXM4-40GB", "A100-40GB-SXM4"}, "SXM4", 108, 40, 1555, {19.5, 156, 312, 312},
               2048, 32, 65536, 164 * kKiB,
               {{0.733, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.872, 0.617, 0.730, {}},
               "NVIDIA A100 datasheet (2021): 108 SMs, 1555 GB/s, 19.5 TF fp32, 156 TF tf32, 312 TF fp16/bf16",
               "fp32 and memory: NeuSight A100-PCIE-40GB (same chip and peaks); tensor: assumed"});
  t.push_back({"A100-40GB-PCIE", {"A100-PCIE-40GB"}, "PCIe", 108, 40, 1555, {19.5, 156, 312, 312}, 2048, 32, 65536,
               164 * kKiB,
               {{0.733, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.872, 0.617, 0.730, {}},
               "NVIDIA A100 datasheet (2021), PCIe 40GB column",
               "fp32 and memory: NeuSight op tables (calibration half); tensor: assumed"});
  t.push_back({"A100-80GB", {"A100-SXM4-80GB", "A100-80GB-SXM4"}, "SXM4", 108, 80, 2039, {19.5, 156, 312, 312}, 2048,
               32, 65536, 164 * kKiB,
               {{0.813, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.858, 0.565, 0.700, {}},
               "NVIDIA A100 datasheet (2021): 80GB SXM4, 2039 GB/s",
               "fp32 and memory: NeuSight A100 80GB PCIe (same chip and peaks); tensor: assumed"});
  t.push_back({"A100-80GB-PCIE", {"A100-80GB-PCIe", "A100 80GB PCIe"}, "PCIe", 108, 80, 1935, {19.5, 156, 312, 312},
               2048, 32, 65536, 164 * kKiB,
               {{0.813, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.858, 0.565, 0.700, {}},
               "NVIDIA A100 datasheet (2021), PCIe 80GB column: 1935 GB/s",
               "fp32 and memory: NeuSight op tables (calibration half); tensor: assumed"});
  t.push_back({"L4", {"L4-24GB", "NVIDIA L4"}, "PCIe", 58, 24, 300, {30.3, 60, 121, 121}, 1536, 24, 65536, 100 * kKiB,
               {{0.239, 0.375, 0.375, 0.375}, 0.781, 0.771, 0.788, {}},
               "NVIDIA L4 datasheet (2023): 58 SMs, 300 GB/s, 30.3 TF fp32; tf32 60 / fp16 121 dense (half the "
               "datasheet's sparse figures)",
               "fp32 and memory: NeuSight op tables (calibration half); tensor: the T4's DeepBench fp16 "
               "fraction (both 70-72 W, power-capped cards)"});
  t.push_back({"H100", {"H100-80GB", "H100-SXM", "H100-SXM5", "H100 80GB HBM3"}, "SXM5", 132, 80, 3350,
               {67, 495, 989, 989}, 2048, 32, 65536, 228 * kKiB, {{0.616, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.90, 0.617, 0.730, {}},
               "NVIDIA H100 datasheet (2023), SXM5: 132 SMs, 3350 GB/s, 67 TF fp32, 495 tf32, 989 fp16/bf16",
               "fp32: NeuSight op tables (calibration half); tensor: assumed; elementwise: measured device-to-device "
               "copy 3000/3350 (shared/tables/specs/measured_calibration_points.csv); norm/reduction: A100-40GB's"});
  t.push_back({"H100-PCIE", {"H100-PCIe", "H100-80GB-PCIE"}, "PCIe", 114, 80, 2000, {51, 378, 756, 756}, 2048, 32,
               65536, 228 * kKiB, {{0.616, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.90, 0.617, 0.730, {}},
               "NVIDIA H100 datasheet (2023), PCIe: 114 SMs, 2000 GB/s, 51 TF fp32, 378 tf32, 756 fp16/bf16",
               "same fractions as the H100 SXM5 (same chip)"});
  t.push_back({"H200", {"H200-141GB", "H200-SXM"}, "SXM", 132, 141, 4800, {67, 495, 989, 989}, 2048, 32, 65536,
               228 * kKiB, {{0.616, kAssumedTensorFraction, kAssumedTensorFraction, kAssumedTensorFraction}, 0.90, 0.617, 0.730, {}},
               "NVIDIA H200 datasheet (2024): H100 compute, 141 GB HBM3e at 4800 GB/s",
               "fp32, tensor, norm/reduction: the H100's; elementwise: measured copy 4300/4800"});
  return t;
}

std::string upper_alnum(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c)) out.push_back(static_cast<char>(std::toupper(c)));
  }
  return out;
}

}  // namespace

const std::vector<GpuSpec>& gpu_spec_table() {
  static const std::vector<GpuSpec> table = build_table();
  return table;
}

const GpuSpec* find_gpu_spec(const std::string& name) {
  const std::string wanted = upper_alnum(name);
  for (const auto& spec : gpu_spec_table()) {
    if (upper_alnum(spec.name) == wanted) return &spec;
    for (const auto& alias : spec.aliases) {
      if (upper_alnum(alias) == wanted) return &spec;
    }
  }
  return nullptr;
}

const GpuSpec& gpu_spec_or_throw(const std::string& name, const std::string& what) {
  if (const GpuSpec* spec = find_gpu_spec(name)) return *spec;
  std::string known;
  for (const auto& spec : gpu_spec_table()) known += (known.empty() ? "" : ", ") + spec.name;
  throw InputError(what + ": unknown GPU '" + name + "'; expected one of " + known);
}

namespace {

bool in_family(const GpuSpec& spec, const std::string& wanted_alnum) {
  if (upper_alnum(spec.name) == wanted_alnum) return true;
  for (std::size_t dash = spec.name.find('-'); dash != std::string::npos; dash = spec.name.find('-', dash + 1)) {
    if (upper_alnum(spec.name.substr(0, dash)) == wanted_alnum) return true;
  }
  return false;
}

std::string known_gpu_names() {
  std::string known;
  for (const auto& spec : gpu_spec_table()) known += (known.empty() ? "" : ", ") + spec.name;
  return known;
}

}  // namespace

std::vector<const GpuSpec*> gpus_of_family(const std::string& name) {
  const std::string wanted = upper_alnum(name);
  std::vector<const GpuSpec*> family;
  if (wanted.empty()) return family;
  for (const auto& spec : gpu_spec_table()) {
    if (in_family(spec, wanted)) family.push_back(&spec);
  }
  if (family.empty()) {
    if (const GpuSpec* spec = find_gpu_spec(name)) family.push_back(spec);
  }
  return family;
}

const GpuSpec* find_one_gpu(const std::string& name, const std::string& what) {
  const std::string wanted = upper_alnum(name);
  for (const auto& spec : gpu_spec_table()) {
    if (!wanted.empty() && upper_alnum(spec.name) == wanted) return &spec;
  }
  const std::vector<const GpuSpec*> family = gpus_of_family(name);
  if (family.size() > 1) {
    std::string matches;
    for (const GpuSpec* spec : family) matches += (matches.empty() ? "" : ", ") + spec->name;
    throw InputError(what + ": '" + name + "' names several GPUs (" + matches + "); give one of them");
  }
  return family.empty() ? nullptr : family.front();
}

const GpuSpec& one_gpu_or_throw(const std::string& name, const std::string& what) {
  if (const GpuSpec* spec = find_one_gpu(name, what)) return *spec;
  throw InputError(what + ": unknown GPU '" + name + "'; expected one of " + known_gpu_names());
}

const GpuSpec* match_device_name(const std::string& device_name, double memory_bytes) {
  const std::string n = upper_alnum(device_name);
  const bool pcie = n.find("PCIE") != std::string::npos;
  const auto has = [&](const char* token) { return n.find(token) != std::string::npos; };
  const bool big_memory = has("80G") || memory_bytes > 60e9;
  if (has("H200")) return find_gpu_spec("H200");
  if (has("H100")) return find_gpu_spec(pcie ? "H100-PCIE" : "H100");
  if (has("A100")) {
    if (big_memory) return find_gpu_spec(pcie ? "A100-80GB-PCIE" : "A100-80GB");
    return find_gpu_spec(pcie ? "A100-40GB-PCIE" : "A100-40GB");
  }
  if (has("V100")) return find_gpu_spec(pcie ? "V100-PCIE" : "V100");
  // "L4"/"T4" are substrings of unrelated names (RTX 4090 -> "RTX4"), so these must match whole.
  if (n == "L4" || n == "NVIDIAL4") return find_gpu_spec("L4");
  if (n == "T4" || n == "TESLAT4" || n == "NVIDIAT4") return find_gpu_spec("T4");
  return nullptr;
}

std::string canonical_gpu_name(const std::string& name) {
  const GpuSpec* spec = find_gpu_spec(name);
  return spec != nullptr ? spec->name : name;
}

}  // namespace spotsim
// clang-format on

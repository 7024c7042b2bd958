#include "steptime/kernel_classifier.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "steptime/kernel_names.hpp"

namespace spotsim {

namespace {

using kernel_names::contains_any;
using kernel_names::lower;

// Precision from the naming conventions of cuBLAS/cuDNN/CUTLASS kernels: "h884"/"h1688"/"h16816" are FP16
// tensor-core tiles, "s1688"/"s16816" with tensorop on sm80+ are TF32 tiles ("tf32" also appears verbatim in
// xmma/cutlass names), "bf16" is spelled out; plain "sgemm"/"scudnn" run FP32 on CUDA cores.
Precision precision_from_name(const std::string& n) {
  if (contains_any(n, {"bf16", "bfloat16"})) return Precision::BF16;
  if (contains_any(n, {"tf32", "tensorop_s1688", "tensorop_s16816", "_s1688gemm", "_s16816gemm"}))
    return Precision::TF32;
  if (contains_any(
          n, {"h884", "h1688", "h16816", "s884", "fp16", "f16f16", "__half", "c10::half", "hgemm", "i8816", "imma"})) {
    return Precision::FP16;
  }
  return Precision::FP32;
}

bool is_convolution(const std::string& n) {
  return contains_any(n, {"conv", "scudnn", "hcudnn", "dgrad", "wgrad", "fprop", "winograd", "implicit_gemm",
                          "implicitgemm", "miopen"});
}

bool is_gemm(const std::string& n) {
  // GEMV is bandwidth-bound, and split-K reductions only sum partial products: both are memory-bound.
  if (contains_any(n, {"gemv", "splitkreduce", "splitk_reduce"})) return false;
  return contains_any(n, {"gemm", "cutlass", "cublas", "xmma", "cijk_", "matmul", "bmm_kernel", "magma"});
}

}  // namespace

KernelKind classify_kernel(std::string_view name) {
  const std::string n = lower(name);
  KernelKind kind;
  if (contains_any(n, {"nccl", "rccl", "all_reduce", "allreduce", "all_gather", "reduce_scatter", "alltoall"})) {
    kind.kernel_class = KernelClass::Communication;
    kind.family = KernelFamily::Communication;
    return kind;
  }
  // Layout transforms emitted by cuDNN around convolutions move memory, they do not multiply.
  const bool layout_transform = contains_any(n, {"nchwtonhwc", "nhwctonchw", "transpose"});
  if (!layout_transform && is_convolution(n) && !contains_any(n, {"bn_fw", "bn_bw", "batch_norm"})) {
    kind.kernel_class = KernelClass::Matrix;
    kind.family = KernelFamily::Convolution;
    kind.precision = precision_from_name(n);
    return kind;
  }
  if (!layout_transform && is_gemm(n)) {
    kind.kernel_class = KernelClass::Matrix;
    kind.family = KernelFamily::Gemm;
    kind.precision = precision_from_name(n);
    return kind;
  }
  if (contains_any(n, {"norm", "bn_fw", "bn_bw", "batchnorm"})) {
    kind.kernel_class = KernelClass::MemoryBound;
    kind.family = KernelFamily::Normalization;
    return kind;
  }
  if (contains_any(
          n, {"softmax", "reduce", "splitk", "argmax", "cross_entropy", "nll_loss", "sum_kernel", "cub::", "scan"})) {
    kind.kernel_class = KernelClass::MemoryBound;
    kind.family = KernelFamily::Reduction;
    return kind;
  }
  if (layout_transform || contains_any(n, {"elementwise",
                                           "vectorized",
                                           "unrolled",
                                           "copy",
                                           "fill",
                                           "pool",
                                           "index",
                                           "gather",
                                           "scatter",
                                           "embedding",
                                           "multi_tensor_apply",
                                           "dropout",
                                           "cat",
                                           "relu",
                                           "gelu",
                                           "tanh",
                                           "sigmoid",
                                           "threshold",
                                           "clamp",
                                           "adam",
                                           "sgd",
                                           "upsample",
                                           "pad",
                                           "where",
                                           "masked",
                                           "gemv"})) {
    kind.kernel_class = KernelClass::MemoryBound;
    kind.family = KernelFamily::Elementwise;
    return kind;
  }
  return kind;
}

bool launching_op_refines(std::string_view op_name) {
  // aten::cudnn_convolution, aten::convolution_backward, aten::cudnn_convolution_backward_input/_weight (2021),
  // aten::miopen_convolution; not aten::conv2d/aten::convolution, which launch nothing themselves.
  const std::string n = lower(op_name);
  return contains_any(n, {"cudnn_convolution", "convolution_backward", "miopen_convolution", "mkldnn_convolution"});
}

KernelKind refine_by_launching_op(KernelKind kind, std::string_view op_name) {
  if (kind.kernel_class == KernelClass::Matrix && kind.family == KernelFamily::Gemm && launching_op_refines(op_name)) {
    kind.family = KernelFamily::Convolution;
  }
  return kind;
}

KernelKind memcpy_kind() { return {KernelClass::MemcpyMemset, KernelFamily::Memcpy, Precision::FP32}; }
KernelKind memset_kind() { return {KernelClass::MemcpyMemset, KernelFamily::Memset, Precision::FP32}; }

std::string to_string(KernelClass c) {
  constexpr std::array<const char*, kKernelClassCount> names = {"matrix/conv", "memory-bound", "communication",
                                                                "memcpy/memset", "other"};
  return names[static_cast<std::size_t>(c)];
}

std::string to_string(KernelFamily f) {
  constexpr std::array<const char*, 9> names = {
      "gemm", "convolution", "elementwise", "normalization", "reduction", "communication", "memcpy", "memset", "other"};
  return names[static_cast<std::size_t>(f)];
}

std::string to_string(Precision p) {
  constexpr std::array<const char*, 4> names = {"fp32", "tf32", "fp16", "bf16"};
  return names[static_cast<std::size_t>(p)];
}

}  // namespace spotsim

#pragma once
// Sorts GPU kernels into the classes that scale differently from one GPU to another (docs/step-time.md#classes):
// matrix/convolution kernels are limited by arithmetic throughput, elementwise/normalisation/reduction kernels
// by memory bandwidth, NCCL kernels by the interconnect. Only the kernel's (demangled) name is available in a
// trace, so classification is by name patterns of the libraries that emit them (cuBLAS, cuDNN, CUTLASS,
// PyTorch ATen, NCCL, rocBLAS/Tensile, MIOpen).
#include <string>
#include <string_view>

namespace spotsim {

enum class KernelClass { Matrix, MemoryBound, Communication, MemcpyMemset, Other };
inline constexpr int kKernelClassCount = 5;

// Finer grouping used to pick a calibrated efficiency: the memory-bound kernels reach different fractions of
// peak bandwidth depending on their access pattern (NeuSight op tables: elementwise ~0.9, layer norm and
// softmax less).
enum class KernelFamily {
  Gemm,
  Convolution,
  Elementwise,
  Normalization,
  Reduction,
  Communication,
  Memcpy,
  Memset,
  Other
};

// The arithmetic a matrix kernel runs in; decides which peak of the GPU spec table applies.
enum class Precision { FP32, TF32, FP16, BF16 };

struct KernelKind {
  KernelClass kernel_class = KernelClass::Other;
  KernelFamily family = KernelFamily::Other;
  Precision precision = Precision::FP32;
};

// `name` is the kernel name as the profiler wrote it.
KernelKind classify_kernel(std::string_view name);
// True for CPU operators whose name changes how the kernels they launch are classified (convolutions).
bool launching_op_refines(std::string_view op_name);
// `kind` of a kernel launched from the CPU operator `op_name` (joined through the trace's "External id"). cuDNN
// runs many convolutions as plain cuBLAS/CUTLASS GEMMs ("volta_sgemm_64x64_nn" launched by
// aten::cudnn_convolution or aten::convolution_backward): by name they are GEMMs, but they are convolutions,
// and PyTorch lets cuDNN convolutions, not matmuls, use TF32 by default, so the family matters on Ampere+.
KernelKind refine_by_launching_op(KernelKind kind, std::string_view op_name);
// Copies and fills recorded as their own activity kind (Kineto `gpu_memcpy` / `gpu_memset`).
KernelKind memcpy_kind();
KernelKind memset_kind();

std::string to_string(KernelClass c);
std::string to_string(KernelFamily f);
std::string to_string(Precision p);

}  // namespace spotsim

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
enum class KernelFamily { Gemm, Convolution, Elementwise, Normalization, Reduction, Communication, Memcpy, Memset, Other };

// The arithmetic a matrix kernel runs in; decides which peak of the GPU spec table applies.
enum class Precision { FP32, TF32, FP16, BF16 };

struct KernelKind {
  KernelClass kernel_class = KernelClass::Other;
  KernelFamily family = KernelFamily::Other;
  Precision precision = Precision::FP32;
};

// `name` is the kernel name as the profiler wrote it.
KernelKind classify_kernel(std::string_view name);
// Copies and fills recorded as their own activity kind (Kineto `gpu_memcpy` / `gpu_memset`).
KernelKind memcpy_kind();
KernelKind memset_kind();

std::string to_string(KernelClass c);
std::string to_string(KernelFamily f);
std::string to_string(Precision p);

}  // namespace spotsim

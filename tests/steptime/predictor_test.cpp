// The cross-GPU scaling model: rate ratios by class, precision mapping, wave quantisation, GPU name lookup.
#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {
namespace {

GpuActivity kernel(KernelClass c, KernelFamily f, double us, std::int64_t grid = 0, int block = 256) {
  GpuActivity a;
  a.duration_us = us;
  a.kind = {c, f, Precision::FP32};
  a.grid_blocks = grid;
  a.block_threads = block;
  return a;
}

TEST(GpuSpecTable, NamesAliasesAndDeviceNames) {
  EXPECT_EQ(gpu_spec_or_throw("a100", "t").name, "A100-40GB");
  EXPECT_EQ(gpu_spec_or_throw("H100-80GB", "t").name, "H100");
  EXPECT_EQ(gpu_spec_or_throw("v100-16gb", "t").name, "V100");
  EXPECT_EQ(canonical_gpu_name("A100-40GB"), "A100-40GB");
  EXPECT_EQ(match_device_name("NVIDIA A100-PG509-200", 42.3e9)->name, "A100-40GB");
  EXPECT_EQ(match_device_name("NVIDIA A100-SXM4-80GB")->name, "A100-80GB");
  EXPECT_EQ(match_device_name("NVIDIA A100 80GB PCIe")->name, "A100-80GB-PCIE");
  EXPECT_EQ(match_device_name("Tesla V100-DGXS-32GB")->name, "V100");
  EXPECT_EQ(match_device_name("NVIDIA H100 80GB HBM3")->name, "H100");
  EXPECT_EQ(match_device_name("Tesla T4")->name, "T4");
  EXPECT_EQ(match_device_name("NVIDIA GeForce RTX 4090"), nullptr);  // "RTX4" must not read as T4
  EXPECT_THROW(gpu_spec_or_throw("K80", "--target"), InputError);
  for (const GpuSpec& g : gpu_spec_table()) {
    EXPECT_FALSE(g.source.empty()) << g.name;
    EXPECT_GT(g.peak(Precision::FP32), 0.0) << g.name;
    EXPECT_GT(g.achieved.elementwise, 0.0) << g.name;
  }
}

TEST(Predictor, MemoryBoundScalesByAchievedBandwidth) {
  const GpuSpec& v100 = gpu_spec_or_throw("V100", "t");
  const GpuSpec& a100 = gpu_spec_or_throw("A100-80GB", "t");
  // A full-wave grid (multiple of both GPUs' waves) isolates the bandwidth ratio.
  const auto a = kernel(KernelClass::MemoryBound, KernelFamily::Elementwise, 100.0, 0);
  const double expected = 100.0 * (900 * v100.achieved.elementwise) / (2039 * a100.achieved.elementwise);
  EXPECT_NEAR(predict_kernel_time_us(a, v100, a100, {}), expected, 1e-9);
  EXPECT_NEAR(predict_kernel_time_us(a, v100, v100, {}), 100.0, 1e-12);
}

TEST(Predictor, MatrixPrecisionFollowsTf32Policy) {
  const GpuSpec& v100 = gpu_spec_or_throw("V100", "t");
  const GpuSpec& a100 = gpu_spec_or_throw("A100-40GB", "t");
  EXPECT_EQ(target_precision(Precision::FP32, KernelFamily::Convolution, a100, Tf32Policy::ConvolutionsOnly),
            Precision::TF32);
  EXPECT_EQ(target_precision(Precision::FP32, KernelFamily::Gemm, a100, Tf32Policy::ConvolutionsOnly), Precision::FP32);
  EXPECT_EQ(target_precision(Precision::FP32, KernelFamily::Gemm, a100, Tf32Policy::All), Precision::TF32);
  EXPECT_EQ(target_precision(Precision::TF32, KernelFamily::Gemm, v100, Tf32Policy::All), Precision::FP32);
  EXPECT_EQ(target_precision(Precision::BF16, KernelFamily::Gemm, v100, Tf32Policy::Off), Precision::FP32);
  const auto conv = kernel(KernelClass::Matrix, KernelFamily::Convolution, 1000.0);
  const auto gemm = kernel(KernelClass::Matrix, KernelFamily::Gemm, 1000.0);
  const double conv_a100 = predict_kernel_time_us(conv, v100, a100, {});
  const double gemm_a100 = predict_kernel_time_us(gemm, v100, a100, {});
  EXPECT_LT(conv_a100, gemm_a100);  // TF32 tensor cores vs FP32 CUDA cores
  EXPECT_NEAR(gemm_a100, 1000.0 * (15.7 * v100.achieved.matrix[0]) / (19.5 * a100.achieved.matrix[0]), 1e-9);
  PredictionOptions off;
  off.tf32 = Tf32Policy::Off;
  EXPECT_NEAR(predict_kernel_time_us(conv, v100, a100, off), gemm_a100, 1e-9);
}

TEST(Predictor, WaveQuantisation) {
  const GpuSpec& v100 = gpu_spec_or_throw("V100", "t");       // 80 SMs
  const GpuSpec& a100 = gpu_spec_or_throw("A100-40GB", "t");  // 108 SMs
  // 256-thread blocks with 128 registers/thread: 65536 / (128 * 256) = 2 blocks per SM.
  auto a = kernel(KernelClass::Matrix, KernelFamily::Gemm, 10.0, 160, 256);
  a.registers_per_thread = 128;
  EXPECT_EQ(resident_blocks_per_sm(a, v100), 2);
  EXPECT_DOUBLE_EQ(wave_efficiency(a, v100), 1.0);            // 160 blocks = exactly one wave of 160
  EXPECT_DOUBLE_EQ(wave_efficiency(a, a100), 160.0 / 216.0);  // one partial wave of 216
  a.grid_blocks = 217;                                        // one block into a second A100 wave
  EXPECT_DOUBLE_EQ(wave_efficiency(a, a100), 217.0 / 432.0);
  // Shared memory can be the limit: 64 KiB per block on a 96 KiB V100 SM -> 1 block.
  a.shared_memory_bytes = 64 * 1024;
  EXPECT_EQ(resident_blocks_per_sm(a, v100), 1);
  // Unknown grid (memcpy, ROCm): no correction.
  a.grid_blocks = 0;
  EXPECT_DOUBLE_EQ(wave_efficiency(a, a100), 1.0);
}

TEST(Predictor, CommunicationKeptUnlessLinksGiven) {
  const GpuSpec& v100 = gpu_spec_or_throw("V100", "t");
  const GpuSpec& h100 = gpu_spec_or_throw("H100", "t");
  const auto nccl = kernel(KernelClass::Communication, KernelFamily::Communication, 500.0, 2);
  EXPECT_DOUBLE_EQ(predict_kernel_time_us(nccl, v100, h100, {}), 500.0);
  PredictionOptions links;
  links.measured_link_gbps = 150.0;  // NVLink 2 per direction
  links.target_link_gbps = 450.0;    // NVLink 4
  EXPECT_DOUBLE_EQ(predict_kernel_time_us(nccl, v100, h100, links), 500.0 / 3.0);
  auto h2d = kernel(KernelClass::MemcpyMemset, KernelFamily::Memcpy, 40.0);
  h2d.host_transfer = true;
  EXPECT_DOUBLE_EQ(predict_kernel_time_us(h2d, v100, h100, {}), 40.0);
}

}  // namespace
}  // namespace spotsim

// The achieved fractions committed in the GPU spec table are the ones the calibration recomputes from the
// shared tables, and the held-out validation error stays where docs/step-time.md reports it.
#include <gtest/gtest.h>

#include "steptime/efficiency_calibration.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/op_efficiency_model.hpp"
#include "steptime/op_table_validation.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

double committed(const GpuSpec& gpu, const std::string& quantity) {
  if (quantity == "matrix.fp32") return gpu.achieved.matrix[static_cast<std::size_t>(Precision::FP32)];
  if (quantity == "matrix.fp16") return gpu.achieved.matrix[static_cast<std::size_t>(Precision::FP16)];
  if (quantity == "convolution.fp16_speedup_large_batch") return gpu.achieved.convolution.fp16_speedup_large_batch;
  if (quantity == "convolution.half_batch_fp32") return gpu.achieved.convolution.half_batch_fp32;
  if (quantity == "convolution.half_batch_fp16") return gpu.achieved.convolution.half_batch_fp16;
  if (quantity == "elementwise") return gpu.achieved.elementwise;
  if (quantity == "normalization") return gpu.achieved.normalization;
  return gpu.achieved.reduction;
}

TEST(Calibration, HalvesAreDisjointAndBalanced) {
  int calibration = 0;
  for (int i = 0; i < 1000; ++i) calibration += in_calibration_half("linear:linear B=1 M=" + std::to_string(i)) ? 1 : 0;
  EXPECT_GT(calibration, 400);
  EXPECT_LT(calibration, 600);
}

TEST(Calibration, CommittedFractionsMatchTheTables) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const auto estimates = calibrate_achieved_fractions(test::kernels_dir());
  ASSERT_GE(estimates.size(), 20u);
  for (const FractionEstimate& e : estimates) {
    // T4's fp32 fraction is taken from NeuSight (the same source as the validation); DeepBench's is reported only.
    if (e.gpu == "T4" && e.quantity == "matrix.fp32" && e.source == "DeepBench") continue;
    EXPECT_NEAR(committed(gpu_spec_or_throw(e.gpu, "t"), e.quantity), e.value, 0.0015)
        << e.gpu << " " << e.quantity << " from " << e.source;
  }
}

// The convolution batch curve's form (a fixed part plus a part per sample), fitted through batches 8 and 16, out
// of sample on the one DeepBench application measured at more batches (DeepSpeech: 4 and 32, both precisions, V100
// and T4). Upward, where the model is used (traces at 32 predicted at 112 and 256), within 2.1%; downward to batch
// 4 it overstates by up to 21% (a smaller batch than any trace here).
TEST(Calibration, ConvolutionBatchCurveHoldsOutOfSample) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const auto checks = check_convolution_batch_curves(test::kernels_dir());
  ASSERT_EQ(checks.size(), 8u);
  for (const BatchCurveCheck& c : checks) {
    const double error = c.predicted_ms / c.measured_ms - 1.0;
    EXPECT_LE(std::abs(error), c.batch > 16 ? 0.025 : 0.22)
        << c.gpu << " " << c.app << " " << c.precision << " batch " << c.batch;
  }
}

TEST(Calibration, CommittedOpModelsAreTheFitToTheTables) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const auto ops = read_neusight_ops(test::kernels_dir() + "/tables/neusight/op_latency");
  const auto refit = fit_op_efficiency_models(ops);
  const auto& committed = committed_op_efficiency_models();
  ASSERT_EQ(refit.size(), committed.size()) << "regenerate with spotsim steptime --fit-op-models";
  ASSERT_EQ(refit.size(), 16u);  // GEMM on 6 GPUs; layer norm and softmax on 5 (H100 has GEMM tables only)
  for (std::size_t i = 0; i < refit.size(); ++i) {
    EXPECT_EQ(refit[i].gpu, committed[i].gpu);
    EXPECT_EQ(refit[i].kind, committed[i].kind);
    EXPECT_EQ(refit[i].samples, committed[i].samples);
  }
  // Compare what the models predict, not their coefficients: the features are collinear, so coefficients may
  // differ in the last digits between compilers while the fitted surface does not.
  std::size_t compared = 0;
  for (const OpMeasurement& m : ops) {
    if (m.dims.kind == OpKind::None) continue;
    const GpuSpec& gpu = gpu_spec_or_throw(m.gpu, "test");
    const OpEfficiencyModel* a = find_op_model(refit, gpu, m.dims.kind);
    const OpEfficiencyModel* b = find_op_model(committed, gpu, m.dims.kind);
    ASSERT_TRUE(a != nullptr && b != nullptr) << m.gpu;
    EXPECT_NEAR(log_efficiency(*a, m.dims), log_efficiency(*b, m.dims), 1e-6) << m.gpu << " " << m.shape;
    ++compared;
  }
  EXPECT_GT(compared, 15000u);
}

TEST(Calibration, HeldOutOpErrorPerGpu) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const auto ops = read_neusight_ops(test::kernels_dir() + "/tables/neusight/op_latency");
  const OpValidation v = validate_on_op_tables(ops, {}, ValidationPath::WithOpDimensions);
  ASSERT_EQ(v.targets.size(), 6u);  // T4, V100-PCIE, A100-40/80 PCIe, L4, H100
  EXPECT_GT(v.held_out_shapes, 2000u);
  // The documented result (docs/step-time.md): 9.3% mean MAPE over GPUs with op dimensions, every GPU under
  // the 15% goal; elementwise ops (rates only) ~3%.
  EXPECT_NEAR(v.mean_mape, 0.093, 0.01);
  for (const TargetError& e : v.targets) {
    EXPECT_LT(e.mape, 0.15) << e.target;
    if (e.mape_by_table.count("elem")) {
      EXPECT_LT(e.mape_by_table.at("elem"), 0.05) << e.target;
    }
  }
}

TEST(Calibration, HeldOutKernelOnlyErrorPerGpu) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const auto ops = read_neusight_ops(test::kernels_dir() + "/tables/neusight/op_latency");
  const OpValidation v = validate_on_op_tables(ops, {}, ValidationPath::KernelOnly);
  ASSERT_EQ(v.targets.size(), 6u);
  // Without op dimensions (a trace recorded without record_shapes): 16.2% (docs/step-time.md).
  EXPECT_NEAR(v.mean_mape, 0.162, 0.01);
  for (const TargetError& e : v.targets) {
    EXPECT_LT(e.mape, 0.25) << e.target;
    if (e.mape_by_table.count("elem")) {
      EXPECT_LT(e.mape_by_table.at("elem"), 0.05) << e.target;
    }
  }
}

}  // namespace
}  // namespace spotsim

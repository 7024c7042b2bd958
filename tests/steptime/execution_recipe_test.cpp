// --layout and --fuse-norm-activation (docs/step-time.md#recipe) and the DeepBench convolution speed-up
// (docs/step-time.md#precision), on hand-built traces whose answer follows from the equations.
#include "steptime/execution_recipe.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.hpp"
#include "steptime/kernel_classifier.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {
namespace {

struct KernelSpec {
  std::string name;
  double duration_us;
};

// Three steps on one V100 (the first is warm-up), kernels back to back on one stream in the given order.
KinetoTrace back_to_back_trace(const std::vector<KernelSpec>& kernels) {
  KinetoTrace trace;
  trace.path = "hand-built";
  TraceDevice device;
  device.name = "Tesla V100-SXM2-32GB";
  device.num_sms = 80;
  device.total_memory_bytes = 34e9;
  device.vendor = GpuVendor::Nvidia;
  trace.devices.push_back(device);
  double step_us = 0.0;
  for (const KernelSpec& k : kernels) step_us += k.duration_us;
  std::int64_t correlation = 0;
  for (int s = 0; s < 3; ++s) {
    double t = s * step_us;
    trace.steps.push_back({"ProfilerStep#" + std::to_string(s), t, step_us});
    for (const KernelSpec& k : kernels) {
      GpuActivity a;
      a.start_us = t;
      a.duration_us = k.duration_us;
      a.correlation = ++correlation;
      a.stream = 7;
      a.name_id = static_cast<std::uint32_t>(trace.names.size());
      trace.names.push_back(k.name);
      a.kind = classify_kernel(k.name);
      trace.launch_time_us[a.correlation] = t;
      trace.activities.push_back(a);
      t += k.duration_us;
    }
  }
  return trace;
}

const GpuSpec& v100() { return gpu_spec_or_throw("V100", "test"); }

double predicted_kernel_sum(const KinetoTrace& trace, const PredictionOptions& options) {
  return predict_step(trace, build_step_profile(trace), v100(), v100(), options).predicted_kernel_sum_us;
}

// Names as the FP32 ResNet-50 trace records them (shared/data/kernels, hta/v100_resnet50_ddp1_fp32_rank0).
const char* kBnForward = "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 128, true, 1, true>(...)";
const char* kBnBackward = "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>(...)";
const char* kReluForward =
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(...)";
const char* kReluBackward =
    "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
    "at::native::(anonymous namespace)::threshold_kernel_impl(...)";
const char* kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> "
    ">(...)";
const char* kCounterAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<long>, "
    "at::detail::Array<char*, 2> >(...)";
const char* kToNhwc =
    "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)0>(...)";
const char* kConv = "cudnn_infer_volta_scudnn_128x64_relu_medium_nn_v1";

TEST(ExecutionRecipe, ParsesTheLayoutAndRejectsOthers) {
  EXPECT_EQ(parse_memory_layout("channels-last", "--layout"), MemoryLayout::ChannelsLast);
  EXPECT_EQ(parse_memory_layout("as-recorded", "--layout"), MemoryLayout::AsRecorded);
  try {
    parse_memory_layout("nhwc", "--layout");
    FAIL() << "accepted nhwc";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("channels-last"), std::string::npos) << e.what();
  }
}

TEST(ExecutionRecipe, ChannelsLastDropsOnlyLayoutTransforms) {
  const KinetoTrace trace = back_to_back_trace({{kToNhwc, 30}, {kConv, 100}, {kBnForward, 50}, {kReluForward, 20}});
  PredictionOptions options;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 200.0, 1e-9);
  options.recipe.layout = MemoryLayout::ChannelsLast;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 170.0, 1e-9);
}

TEST(ExecutionRecipe, FusionFoldsReluAndAddIntoTheAdjacentBatchNorm) {
  // Forward: BN, ReLU (fused: 0), BN, add (fused: 1/3), ReLU after BN+add (fused: 0), the counter update of
  // batch norm (not a tensor add: kept); backward: ReLU backward (fused: 1/3), BN backward, then an add that
  // follows no forward batch norm (gradient accumulation: kept).
  const KinetoTrace trace = back_to_back_trace({{kBnForward, 50},
                                                {kReluForward, 20},
                                                {kBnForward, 50},
                                                {kAdd, 30},
                                                {kReluForward, 20},
                                                {kCounterAdd, 1},
                                                {kReluBackward, 30},
                                                {kBnBackward, 90},
                                                {kAdd, 30}});
  PredictionOptions options;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 321.0, 1e-9);
  options.recipe.fuse_norm_activation = true;
  const double expected = 50 + 0 + 50 + 30.0 / 3 + 0 + 1 + 30.0 / 3 + 90 + 30;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), expected, 1e-9);
}

TEST(ExecutionRecipe, FusionNeedsTheBatchNormNextToIt) {
  // A ReLU after a convolution (no batch norm) and a ReLU backward followed by an add stay.
  const KinetoTrace trace = back_to_back_trace({{kConv, 100}, {kReluForward, 20}, {kReluBackward, 30}, {kAdd, 30}});
  PredictionOptions options;
  options.recipe.fuse_norm_activation = true;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 180.0, 1e-9);
}

TEST(ExecutionRecipe, FusionComposesWithHalfPrecisionActivations) {
  // amp-fp16 halves the activation bytes first; the fused add keeps a third of that.
  const KinetoTrace trace = back_to_back_trace({{kBnForward, 60}, {kAdd, 30}});
  PredictionOptions options;
  options.precision = TrainingPrecision::AmpFp16;
  options.recipe.fuse_norm_activation = true;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 60.0 / 2 + 30.0 / 2 / 3, 1e-9);
}

TEST(ConvolutionSpeedup, Fp32ConvolutionOnV100TensorCoresGainsTheDeepBenchSpeedupAtTheTracesBatch) {
  // Same GPU, FP32 -> FP16: t' = t / S(B) (grid unknown: no wave correction), S(B) = S_inf (1 + h32/B) / (1 + h16/B)
  // from the committed curve; B = --batch, else the reference batch 16. A GEMM keeps the GEMM fraction ratio.
  const ConvolutionBatchCurve& c = v100().achieved.convolution;
  ASSERT_TRUE(c.measured());
  const double s16 = c.fp16_speedup_large_batch * (1 + c.half_batch_fp32 / 16) / (1 + c.half_batch_fp16 / 16);
  const double s32 = c.fp16_speedup_large_batch * (1 + c.half_batch_fp32 / 32) / (1 + c.half_batch_fp16 / 32);
  EXPECT_GT(s32, s16);  // fixed costs weigh more on the faster tensor-core kernels: the speed-up grows with the batch
  const KinetoTrace conv = back_to_back_trace({{kConv, 400.0}});
  PredictionOptions options;
  options.precision = TrainingPrecision::AmpFp16;
  EXPECT_NEAR(predicted_kernel_sum(conv, options), 400.0 / s16, 1e-9);
  options.trace_batch = 32;
  EXPECT_NEAR(predicted_kernel_sum(conv, options), 400.0 / s32, 1e-9);
  const KinetoTrace gemm = back_to_back_trace({{"volta_sgemm_64x64_nt", 100.0}});
  const GpuSpec& g = v100();
  const double ratio =
      g.peak(Precision::FP32) * g.achieved.matrix[0] / (g.peak(Precision::FP16) * g.achieved.matrix[2]);
  EXPECT_NEAR(predicted_kernel_sum(gemm, options), 100.0 * ratio, 1e-9);
}

TEST(ConvolutionSpeedup, ALargerBatchSpreadsTheFixedPartOfConvolutionsOnly) {
  // Batch 32 -> 112 on a V100: a convolution takes 3.5 x (1 + h/112) / (1 + h/32) of its time, h of the precision
  // it runs in on the target; a GEMM and a memory-bound kernel take 3.5x; without the trace's batch, all 3.5x.
  const ConvolutionBatchCurve& c = v100().achieved.convolution;
  const KinetoTrace trace = back_to_back_trace({{kConv, 100.0}, {"volta_sgemm_64x64_nt", 10.0}, {kAdd, 20.0}});
  PredictionOptions options;
  options.batch_scale = 3.5;
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 3.5 * 130.0, 1e-9);
  options.trace_batch = 32;
  const double fp32 = 3.5 * (1 + c.half_batch_fp32 / 112) / (1 + c.half_batch_fp32 / 32);
  EXPECT_NEAR(predicted_kernel_sum(trace, options), 100.0 * fp32 + 3.5 * 30.0, 1e-9);
  EXPECT_LT(fp32, 3.5);
  options.precision = TrainingPrecision::AmpFp16;
  const double fp16 = 3.5 * (1 + c.half_batch_fp16 / 112) / (1 + c.half_batch_fp16 / 32);
  const double conv = 100.0 / c.fp16_speedup_at(32) * fp16;
  const GpuSpec& g = v100();
  const double gemm =
      10.0 * g.peak(Precision::FP32) * g.achieved.matrix[0] / (g.peak(Precision::FP16) * g.achieved.matrix[2]);
  EXPECT_NEAR(predicted_kernel_sum(trace, options), conv + 3.5 * gemm + 3.5 * 20.0 / 2, 1e-9);
  options.trace_batch = -1;
  EXPECT_THROW(predicted_kernel_sum(trace, options), InputError);
}

TEST(ConvolutionSpeedup, GpusWithoutAMeasurementUseTheTensorFractionAndScaleLinearly) {
  const GpuSpec& a100 = gpu_spec_or_throw("A100-80GB", "test");
  EXPECT_FALSE(a100.achieved.convolution.measured());
  const KinetoTrace conv = back_to_back_trace({{kConv, 100.0}});
  PredictionOptions options;
  options.precision = TrainingPrecision::AmpFp16;
  options.trace_batch = 32;
  options.batch_scale = 8;
  const double expected = 8 * 100.0 * v100().peak(Precision::FP32) * v100().achieved.matrix[0] /
                          (a100.peak(Precision::FP16) * a100.achieved.matrix[2]);
  EXPECT_NEAR(predict_step(conv, build_step_profile(conv), v100(), a100, options).predicted_kernel_sum_us, expected,
              1e-9);
}

}  // namespace
}  // namespace spotsim

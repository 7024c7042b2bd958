// The op-level efficiency model (op_efficiency_model.hpp) on synthetic data with a known answer, the op shapes
// read from a trace's recorded inputs, and the step prediction that uses them.
#include <gtest/gtest.h>

#include <cmath>

#include "steptime/gpu_spec_table.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/op_efficiency_model.hpp"
#include "steptime/op_shape_from_trace.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

// A GEMM efficiency surface inside the span of the model's features: log eff = -2 + 0.1 log K.
double synthetic_seconds(const GpuSpec& gpu, const OpShape& s) {
  const double efficiency = std::exp(-2.0 + 0.1 * std::log(s.k));
  return s.flops() / (gpu.peak(Precision::FP32) * 1e12 * efficiency);
}

std::vector<OpSample> synthetic_gemms(const GpuSpec& gpu) {
  std::vector<OpSample> samples;
  for (double b : {1.0, 4.0, 16.0}) {
    for (double m : {64.0, 256.0, 1024.0, 4096.0}) {
      for (double n : {128.0, 512.0, 2048.0}) {
        for (double k : {64.0, 256.0, 1024.0, 4096.0}) {
          const OpShape s = OpShape::gemm(b, m, n, k);
          samples.push_back({s, synthetic_seconds(gpu, s)});
        }
      }
    }
  }
  return samples;
}

TEST(OpModel, FitRecoversAKnownEfficiencySurface) {
  const GpuSpec& t4 = gpu_spec_or_throw("T4", "t");
  const OpEfficiencyModel model = fit_op_efficiency_model(t4, OpKind::Gemm, synthetic_gemms(t4));
  EXPECT_EQ(model.samples, 144u);
  // Inside the fitted range, between the grid points; the ridge term (1e-3) biases by far less than 1e-3.
  const OpShape inside = OpShape::gemm(2.0, 700.0, 300.0, 500.0);
  EXPECT_NEAR(log_efficiency(model, inside), -2.0 + 0.1 * std::log(500.0), 1e-3);
  // Just outside it, dimensions are clamped to the range: K = 8000 is treated as K = 4096.
  EXPECT_NEAR(log_efficiency(model, OpShape::gemm(2.0, 700.0, 300.0, 8000.0)),
              log_efficiency(model, OpShape::gemm(2.0, 700.0, 300.0, 4096.0)), 1e-12);
  // Within a factor 2 of the fitted range the model applies; beyond, it does not (a GEMV is another animal).
  EXPECT_TRUE(covers(model, OpShape::gemm(2.0, 700.0, 300.0, 8000.0)));
  EXPECT_TRUE(covers(model, OpShape::gemm(1.0, 32.0, 128.0, 64.0)));
  EXPECT_FALSE(covers(model, OpShape::gemm(2.0, 700.0, 300.0, 9000.0)));
  EXPECT_FALSE(covers(model, OpShape::gemm(1.0, 1.0, 4096.0, 4096.0)));
  EXPECT_FALSE(covers(model, OpShape::row_op(OpKind::LayerNorm, 64.0, 1024.0)));
}

TEST(OpModel, PredictionBlendsTheTargetModelWithTheMeasurement) {
  const GpuSpec& t4 = gpu_spec_or_throw("T4", "t");
  const GpuSpec& l4 = gpu_spec_or_throw("L4", "t");
  const std::vector<OpEfficiencyModel> models = {fit_op_efficiency_model(t4, OpKind::Gemm, synthetic_gemms(t4)),
                                                 fit_op_efficiency_model(l4, OpKind::Gemm, synthetic_gemms(l4))};
  const OpShape s = OpShape::gemm(4.0, 1024.0, 512.0, 1024.0);
  const double on_t4 = synthetic_seconds(t4, s) * 1e6, on_l4 = synthetic_seconds(l4, s) * 1e6;
  // A measurement that agrees with the source's model gives the target's model exactly.
  EXPECT_NEAR(predict_op_time_us(s, on_t4, t4, l4, models) / on_l4, 1.0, 2e-3);
  // A measurement twice as slow moves the prediction by 2^weight, not 2.
  EXPECT_NEAR(predict_op_time_us(s, 2.0 * on_t4, t4, l4, models) / predict_op_time_us(s, on_t4, t4, l4, models),
              std::pow(2.0, kMeasurementWeight), 1e-9);
  // No model for the GPU, no shape, or a shape the models do not cover: NAN, so the caller scales kernel by kernel.
  EXPECT_TRUE(std::isnan(predict_op_time_us(OpShape::gemm(1.0, 1.0, 4096.0, 4096.0), on_t4, t4, l4, models)));
  EXPECT_TRUE(std::isnan(predict_op_time_us(s, on_t4, t4, gpu_spec_or_throw("H100", "t"), models)));
  EXPECT_TRUE(std::isnan(predict_op_time_us(OpShape{}, on_t4, t4, l4, models)));
}

TEST(OpModel, SiblingGpusShareTheMeasuredChipsModel) {
  const auto& models = committed_op_efficiency_models();
  EXPECT_EQ(find_op_model(models, gpu_spec_or_throw("A100-40GB", "t"), OpKind::Gemm)->gpu, "A100-40GB-PCIE");
  EXPECT_EQ(find_op_model(models, gpu_spec_or_throw("V100", "t"), OpKind::LayerNorm)->gpu, "V100-PCIE");
  EXPECT_EQ(find_op_model(models, gpu_spec_or_throw("H200", "t"), OpKind::Gemm)->gpu, "H100");
  // The H100 tables have no row ops; H200 memory differs from H100's, so neither borrows one.
  EXPECT_EQ(find_op_model(models, gpu_spec_or_throw("H200", "t"), OpKind::Softmax), nullptr);
}

TEST(OpModel, GeneratedSourceRoundTripsEveryDigit) {
  const GpuSpec& t4 = gpu_spec_or_throw("T4", "t");
  const OpEfficiencyModel model = fit_op_efficiency_model(t4, OpKind::Gemm, synthetic_gemms(t4));
  const std::string source = op_models_source({model});
  EXPECT_NE(source.find("{\"T4\", OpKind::Gemm,"), std::string::npos);
  EXPECT_NE(source.find(", 144},"), std::string::npos);
  const std::size_t open = source.find("{", source.find("OpKind::Gemm,"));
  EXPECT_EQ(std::stod(source.substr(open + 1)), model.coefficients[0]);
}

// op_shape_from_inputs takes a span (the reader's reused scratch); tests spell the inputs as nested lists.
OpShape shape_from(const std::string& name, const std::vector<std::vector<double>>& dims,
                   const std::vector<std::string>& types) {
  return op_shape_from_inputs(name, dims, types);
}

TEST(OpShapeFromTrace, OperatorsAndTheirOperands) {
  const std::vector<std::string> f2 = {"float", "float"}, f3 = {"float", "float", "float"};
  EXPECT_EQ(shape_from("aten::mm", {{32, 64}, {64, 128}}, f2).flops(), 2.0 * 32 * 64 * 128);
  const OpShape addmm = shape_from("aten::addmm", {{128}, {32, 64}, {64, 128}, {}, {}}, f3);
  EXPECT_EQ(addmm.kind, OpKind::Gemm);
  EXPECT_EQ(addmm.m, 32.0);
  EXPECT_EQ(addmm.n, 128.0);
  EXPECT_EQ(addmm.k, 64.0);
  const OpShape bmm = shape_from("aten::bmm", {{8, 32, 64}, {8, 64, 16}}, f2);
  EXPECT_EQ(bmm.batch, 8.0);
  EXPECT_EQ(bmm.n, 16.0);
  EXPECT_EQ(shape_from("aten::baddbmm", {{8, 32, 16}, {8, 32, 64}, {8, 64, 16}}, f3).batch, 8.0);
  const OpShape ln = shape_from("aten::native_layer_norm", {{4, 16, 768}, {}, {768}}, {"float", "", "float"});
  EXPECT_EQ(ln.kind, OpKind::LayerNorm);
  EXPECT_EQ(ln.rows, 64.0);
  EXPECT_EQ(ln.row_length, 768.0);
  EXPECT_EQ(shape_from("aten::_softmax", {{4, 12, 128, 128}}, {"float"}).rows, 4.0 * 12 * 128);
  // Not modelled: inner dimensions that disagree, half precision, a missing operand, an unknown operator.
  EXPECT_EQ(shape_from("aten::mm", {{32, 64}, {65, 128}}, f2).kind, OpKind::None);
  EXPECT_EQ(shape_from("aten::bmm", {{8, 32, 64}, {4, 64, 16}}, f2).kind, OpKind::None);
  EXPECT_EQ(shape_from("aten::mm", {{32, 64}, {64, 128}}, {"c10::Half", "c10::Half"}).kind, OpKind::None);
  EXPECT_EQ(shape_from("aten::addmm", {{128}, {32, 64}}, f3).kind, OpKind::None);
  EXPECT_EQ(shape_from("aten::mm", {{0, 64}, {64, 128}}, f2).kind, OpKind::None);
  EXPECT_EQ(shape_from("aten::conv2d", {{32, 64}, {64, 128}}, f2).kind, OpKind::None);
}

TEST(OpShapeFromTrace, ReaderLinksKernelsToTheirShapedOperator) {
  const KinetoTrace trace = read_kineto_trace(test::fixture("shaped_ops.json"));
  ASSERT_EQ(trace.ops.size(), 2u);  // addmm and layer norm; the fp16 bmm and the inconsistent mm are dropped
  ASSERT_EQ(trace.activities.size(), 5u);
  const std::vector<int> expected_op = {0, 0, -1, 1, -1};  // sgemm, split-K reduce, h884 gemm, layer norm, mm
  for (std::size_t i = 0; i < expected_op.size(); ++i) EXPECT_EQ(trace.activities[i].op, expected_op[i]) << i;
  EXPECT_EQ(trace.ops[0].kind, OpKind::Gemm);
  EXPECT_EQ(trace.ops[0].m, 64.0);
  EXPECT_EQ(trace.ops[0].n, 1000.0);
  EXPECT_EQ(trace.ops[0].k, 2048.0);
  EXPECT_EQ(trace.ops[1].kind, OpKind::LayerNorm);
  EXPECT_EQ(trace.ops[1].rows, 8192.0);
}

TEST(OpShapeFromTrace, StepPredictionUsesTheOpModelWherePrecisionAllows) {
  const KinetoTrace trace = read_kineto_trace(test::fixture("shaped_ops.json"));
  const StepProfile profile = build_step_profile(trace);
  const GpuSpec& v100 = gpu_spec_or_throw("V100", "t");
  const GpuSpec& a100 = gpu_spec_or_throw("A100-80GB", "t");
  const StepPrediction p = predict_step(trace, profile, v100, a100, {});
  EXPECT_DOUBLE_EQ(p.measured_by_op_model_us, 65.0);  // sgemm 40 + split-K 5 + layer norm 20
  // The op's kernels together take the op-level prediction for the whole op.
  const double addmm = predict_op_time_us(trace.ops[0], 45.0, v100, a100);
  const double layer_norm = predict_op_time_us(trace.ops[1], 20.0, v100, a100);
  double rest = 0.0;
  for (const GpuActivity& a : trace.activities) {
    if (a.op < 0) rest += predict_kernel_time_us(a, v100, a100, {});
  }
  EXPECT_NEAR(p.predicted_kernel_sum_us, addmm + layer_norm + rest, 1e-9);
  // Matmuls on TF32 tensor cores leave the fp32 model's domain: the addmm is scaled kernel by kernel.
  PredictionOptions tf32;
  tf32.tf32 = Tf32Policy::All;
  EXPECT_DOUBLE_EQ(predict_step(trace, profile, v100, a100, tf32).measured_by_op_model_us, 20.0);
  // On the GPU it was measured on, nothing changes.
  const StepPrediction same = predict_step(trace, profile, v100, v100, {});
  EXPECT_NEAR(same.predicted_kernel_sum_us, same.measured_kernel_sum_us, 1e-9);
  EXPECT_EQ(same.measured_by_op_model_us, 0.0);
}

TEST(OpShapeFromTrace, RecordedShapesInTheLegacyTrace) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const KinetoTrace trace = read_kineto_trace(
      test::kernels_dir() + "/kineto-traces/kineto_tb_plugin/v100_resnet50_bs32_fp32_legacy_schema.pt.trace.json.gz");
  // ResNet-50's classifier: addmm [32, 2048] x [2048, 1000] forward, and its two backward mm's, every step.
  bool found_classifier = false;
  for (const GpuActivity& a : trace.activities) {
    if (a.op < 0 || a.kind.kernel_class != KernelClass::Matrix) continue;
    const OpShape& s = trace.ops[static_cast<std::size_t>(a.op)];
    if (s.m == 32.0 && s.n == 1000.0 && s.k == 2048.0) found_classifier = true;
  }
  EXPECT_TRUE(found_classifier);
  // M = 32 is a factor 4 below the V100 tables' smallest GEMM (M = 128), so the op-level model declines the
  // forward addmm and the input-gradient mm; the weight-gradient mm (M = 1000, N = 2048, K = 32: K within a
  // factor 2 of the smallest, 64) is taken. Everything else is scaled kernel by kernel.
  const StepPrediction p = predict_step(trace, build_step_profile(trace), gpu_spec_or_throw("V100", "t"),
                                        gpu_spec_or_throw("A100-40GB", "t"), {});
  EXPECT_GT(p.measured_by_op_model_us, 5.0);
  EXPECT_LT(p.measured_by_op_model_us, 100.0);
}

}  // namespace
}  // namespace spotsim

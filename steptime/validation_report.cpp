#include "steptime/validation_report.hpp"

#include <cmath>
#include <sstream>

#include "base/text_format.hpp"
#include "steptime/efficiency_calibration.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/op_table_validation.hpp"
#include "steptime/precision_validation.hpp"
#include "steptime/steptime_report.hpp"

namespace spotsim {

namespace {

double committed_fraction(const GpuSpec& gpu, const std::string& quantity) {
  if (quantity == "matrix.fp32") return gpu.achieved.matrix[static_cast<std::size_t>(Precision::FP32)];
  if (quantity == "matrix.fp16") return gpu.achieved.matrix[static_cast<std::size_t>(Precision::FP16)];
  if (quantity == "convolution.fp16_speedup_large_batch") return gpu.achieved.convolution.fp16_speedup_large_batch;
  if (quantity == "convolution.half_batch_fp32") return gpu.achieved.convolution.half_batch_fp32;
  if (quantity == "convolution.half_batch_fp16") return gpu.achieved.convolution.half_batch_fp16;
  if (quantity == "elementwise") return gpu.achieved.elementwise;
  if (quantity == "normalization") return gpu.achieved.normalization;
  if (quantity == "reduction") return gpu.achieved.reduction;
  return NAN;
}

struct TraceCompute {
  std::string gpu;
  double compute_us = 0;  // steady-state non-communication kernel time per step
};

TraceCompute measured_compute(const std::string& path) {
  const KinetoTrace trace = read_kineto_trace(path);
  const StepProfile profile = build_step_profile(trace);
  const GpuSpec& gpu = measured_gpu_of(trace, "");
  double compute = 0.0;
  for (std::size_t c = 0; c < profile.mean_by_class.size(); ++c) {
    if (c != static_cast<std::size_t>(KernelClass::Communication)) compute += profile.mean_by_class[c].time_us;
  }
  return {gpu.name, compute};
}

void cross_check(std::ostringstream& out, const std::string& from_path, const std::string& from_label,
                 const TraceCompute& truth, const std::string& truth_label) {
  const KinetoTrace trace = read_kineto_trace(from_path);
  const StepProfile profile = build_step_profile(trace);
  const GpuSpec& measured = measured_gpu_of(trace, "");
  const StepPrediction p = predict_step(trace, profile, measured, gpu_spec_or_throw(truth.gpu, "validation"), {});
  const double error = (p.predicted_compute_us() - truth.compute_us) / truth.compute_us;
  out << "  " << from_label << " (" << format_fixed(p.measured_compute_us() / 1000.0, 1) << " ms on " << measured.name
      << ") -> " << truth.gpu << ": predicted " << format_fixed(p.predicted_compute_us() / 1000.0, 1)
      << " ms, measured " << format_fixed(truth.compute_us / 1000.0, 1) << " ms (" << truth_label << "), error "
      << (error >= 0 ? "+" : "") << format_fixed(100.0 * error, 1) << "%\n";
}

}  // namespace

std::string validation_report(const std::string& kernels_dir) {
  std::ostringstream out;
  out << "calibration of achieved fractions (median achieved / peak; NeuSight: calibration half only)\n";
  for (const FractionEstimate& e : calibrate_achieved_fractions(kernels_dir)) {
    const GpuSpec& gpu = gpu_spec_or_throw(e.gpu, "calibration");
    out << "  " << e.gpu << " " << e.quantity << " [" << e.source << ", n=" << e.samples
        << "]: " << format_fixed(e.value, 3) << " (table: " << format_fixed(committed_fraction(gpu, e.quantity), 3)
        << ")\n";
  }
  out << "\nconvolution FP16 speed-up by batch, S(N) = S_inf (1 + h_fp32/N) / (1 + h_fp16/N) (committed curves):\n";
  for (const GpuSpec& gpu : gpu_spec_table()) {
    const ConvolutionBatchCurve& c = gpu.achieved.convolution;
    if (!c.measured()) continue;
    out << "  " << gpu.name << ":";
    for (const double n : {8.0, 16.0, 32.0, 256.0}) out << " S(" << n << ") " << format_fixed(c.fp16_speedup_at(n), 2);
    out << "\n";
  }
  out << "\nconvolution batch curves (T(N) = a + b N through batches 8 and 16), out of sample at DeepBench's other "
         "batches:\n";
  for (const BatchCurveCheck& c : check_convolution_batch_curves(kernels_dir)) {
    out << "  " << c.gpu << " " << c.app << " " << c.precision << " batch " << c.batch << " [n=" << c.cells
        << "]: predicted " << format_fixed(c.predicted_ms, 3) << " ms, measured " << format_fixed(c.measured_ms, 3)
        << " ms, error " << format_fixed(100.0 * (c.predicted_ms / c.measured_ms - 1.0), 1) << "%\n";
  }

  const auto ops = read_neusight_ops(kernels_dir + "/tables/neusight/op_latency");
  const auto print_validation = [&](ValidationPath path, const char* title) {
    const OpValidation v = validate_on_op_tables(ops, {}, path);
    out << "\nNeuSight op tables, held-out half (" << v.held_out_shapes << " op shapes), " << title
        << ", each GPU predicted from every other GPU's measurement:\n";
    for (const TargetError& e : v.targets) {
      out << "  " << e.target << ": MAPE " << format_fixed(100.0 * e.mape, 1) << "% (median "
          << format_fixed(100.0 * e.median_ape, 1) << "%, n=" << e.predictions << ";";
      for (const auto& [table, mape] : e.mape_by_table)
        out << " " << table << " " << format_fixed(100.0 * mape, 1) << "%";
      out << ")\n";
    }
    out << "  mean over target GPUs: " << format_fixed(100.0 * v.mean_mape, 1) << "%\n";
  };
  print_validation(ValidationPath::WithOpDimensions,
                   "with op dimensions (GEMM, layer norm, softmax: op-level efficiency model; elementwise: rates)");
  print_validation(ValidationPath::KernelOnly, "kernel only (latency, grid and block: calibrated rates and waves)");

  const std::string hta = kernels_dir + "/kineto-traces/hta/";
  const std::string v100 = hta + "v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz";
  const std::string a100 = hta + "a100_40gb_resnet50_ddp2_fp32_rank0.json.gz";
  const std::string legacy =
      kernels_dir + "/kineto-traces/kineto_tb_plugin/v100_resnet50_bs32_fp32_legacy_schema.pt.trace.json.gz";
  const TraceCompute a100_truth = measured_compute(a100);
  const TraceCompute v100_truth = measured_compute(v100);
  out << "\nResNet-50, batch 32 per GPU, FP32 (cuDNN convolutions on TF32 where available), compute kernels per "
         "steady-state step (all but NCCL):\n";
  cross_check(out, v100, "V100 trace", a100_truth, "A100 trace");
  cross_check(out, legacy, "V100 legacy trace", a100_truth, "A100 trace");
  cross_check(out, a100, "A100 trace", v100_truth, "V100 trace");

  // Both single-GPU FP32 ResNet-50 traces run batch 32 (docs/step-time.md#validation: from the largest
  // elementwise grid, 50,176 x 512 = 32 x 64 x 112 x 112).
  const std::string published = kernels_dir + "/tables/published_step_throughput.csv";
  out << format_published_throughput(validate_published_throughput(published, v100, kResNet50TraceBatch));
  out << format_published_throughput(validate_published_throughput(published, legacy, kResNet50TraceBatch));
  return out.str();
}

}  // namespace spotsim

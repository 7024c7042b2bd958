#include "steptime/precision_validation.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "steptime/csv_table.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {

TrainingPrecision published_precision(const std::string& text, const std::string& what) {
  if (text == "FP32") return TrainingPrecision::Fp32;
  if (text == "TF32") return TrainingPrecision::Tf32;
  if (text == "AMP" || text == "FP16") return TrainingPrecision::AmpFp16;
  if (text == "BF16") return TrainingPrecision::AmpBf16;
  throw InputError(what + ": precision '" + text + "': expected FP32, TF32, AMP, FP16 or BF16");
}

PublishedThroughputValidation validate_published_throughput(const std::string& table_path,
                                                            const std::string& trace_path, double trace_batch) {
  const CsvTable csv = CsvTable::read(table_path);
  const std::size_t c_gpu = csv.column("gpu"), c_precision = csv.column("precision"),
                    c_batch = csv.column("per_gpu_batch"), c_value = csv.column("value"), c_unit = csv.column("unit");
  const KinetoTrace trace = read_kineto_trace(trace_path);
  const StepProfile profile = build_step_profile(trace);
  const GpuSpec& measured = measured_gpu_of(trace, "");

  PublishedThroughputValidation v;
  v.trace = trace_path;
  v.trace_batch = trace_batch;
  for (std::size_t r = 0; r < csv.rows(); ++r) {
    const std::string where = table_path + " row " + std::to_string(r + 2);
    if (csv.text(r, c_unit) != "img/s")
      throw InputError(where + ": unit '" + csv.text(r, c_unit) + "': expected img/s");
    PublishedThroughputRow row;
    row.gpu_label = csv.text(r, c_gpu);
    const GpuSpec* gpu = match_device_name(row.gpu_label);
    if (gpu == nullptr) throw InputError(where + ": GPU '" + row.gpu_label + "' is not in the spec table");
    row.gpu = gpu->name;
    row.precision_label = csv.text(r, c_precision);
    row.precision = published_precision(row.precision_label, where);
    row.batch = csv.number(r, c_batch);
    row.published_samples_per_s = csv.number(r, c_value);
    if (!(row.batch >= 1.0) || !(row.published_samples_per_s > 0.0)) {
      throw InputError(where + ": expected per_gpu_batch >= 1 and value > 0");
    }
    PredictionOptions options;
    options.precision = row.precision;
    options.batch_scale = row.batch / trace_batch;
    options.trace_batch = trace_batch;
    // What the published runs execute (DeepLearningExamples PyTorch/Classification/ConvNets/configs.yml): every
    // AMP configuration sets memory_format: nhwc; FP32/TF32 ones keep NCHW. Its resnet.py keeps batch norm, ReLU
    // and the residual add as separate modules, so no fusion.
    if (row.precision == TrainingPrecision::AmpFp16 || row.precision == TrainingPrecision::AmpBf16) {
      options.recipe.layout = MemoryLayout::ChannelsLast;
    }
    row.layout = options.recipe.layout;
    row.predicted_step_us = predict_step(trace, profile, measured, *gpu, options).predicted_step_us;
    row.predicted_samples_per_s = row.batch / (row.predicted_step_us * 1e-6);
    row.error = row.predicted_samples_per_s / row.published_samples_per_s - 1.0;
    v.mean_absolute_error += std::abs(row.error);
    v.max_absolute_error = std::max(v.max_absolute_error, std::abs(row.error));
    v.rows.push_back(row);
  }
  if (!v.rows.empty()) v.mean_absolute_error /= static_cast<double>(v.rows.size());
  return v;
}

std::string format_published_throughput(const PublishedThroughputValidation& v) {
  std::ostringstream out;
  out << "\nNVIDIA's published ResNet-50 training throughput, each row predicted from " << v.trace << " (batch "
      << format_fixed(v.trace_batch, 0) << ") with --precision = the row's and the row's per-GPU batch:\n";
  for (const PublishedThroughputRow& r : v.rows) {
    out << "  " << r.gpu_label << " (" << r.gpu << ") " << r.precision_label << " (" << to_string(r.precision)
        << ", --layout " << to_string(r.layout) << "), batch " << format_fixed(r.batch, 0) << ": predicted "
        << format_fixed(r.predicted_samples_per_s, 0) << " img/s (step "
        << format_fixed(r.predicted_step_us / 1000.0, 1) << " ms), published "
        << format_fixed(r.published_samples_per_s, 0) << " img/s, error " << (r.error >= 0 ? "+" : "")
        << format_fixed(100.0 * r.error, 1) << "%\n";
  }
  out << "  mean absolute error " << format_fixed(100.0 * v.mean_absolute_error, 1) << "%, max "
      << format_fixed(100.0 * v.max_absolute_error, 1) << "% over " << v.rows.size() << " rows\n";
  return out.str();
}

}  // namespace spotsim

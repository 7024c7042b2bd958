#include "steptime/op_table_validation.hpp"

#include <algorithm>
#include <cmath>

#include "base/statistics.hpp"

namespace spotsim {

namespace {

double predict(const OpMeasurement& source, const OpMeasurement& target, const PredictionOptions& options,
               ValidationPath path, const std::vector<OpEfficiencyModel>& models) {
  const GpuSpec& from = gpu_spec_or_throw(source.gpu, "validation");
  const GpuSpec& to = gpu_spec_or_throw(target.gpu, "validation");
  if (path == ValidationPath::WithOpDimensions && source.dims.kind != OpKind::None) {
    const double t = predict_op_time_us(source.dims, source.latency_us, from, to, models);
    if (std::isfinite(t)) return t;
  }
  return predict_kernel_time_us(source.kernel, from, to, options);
}

}  // namespace

OpValidation validate_on_op_tables(const std::vector<OpMeasurement>& ops, const PredictionOptions& options,
                                   ValidationPath path, const std::vector<OpEfficiencyModel>& models) {
  std::map<std::string, std::vector<const OpMeasurement*>> by_shape;
  for (const OpMeasurement& m : ops) {
    if (!in_calibration_half(m.shape)) by_shape[m.shape].push_back(&m);
  }
  std::map<std::string, std::vector<double>> errors;
  std::map<std::string, std::map<std::string, std::vector<double>>> errors_by_table;
  for (const auto& [shape, measured] : by_shape) {
    for (const OpMeasurement* target : measured) {
      for (const OpMeasurement* source : measured) {
        if (source->gpu == target->gpu) continue;
        const double predicted = predict(*source, *target, options, path, models);
        const double error = std::abs(predicted - target->latency_us) / target->latency_us;
        errors[target->gpu].push_back(error);
        errors_by_table[target->gpu][target->table].push_back(error);
      }
    }
  }
  OpValidation result;
  result.held_out_shapes = by_shape.size();
  for (auto& [gpu, values] : errors) {
    TargetError e;
    e.target = gpu;
    e.predictions = values.size();
    e.mape = summarize(values).mean;
    std::sort(values.begin(), values.end());
    e.median_ape = percentile_sorted(values, 0.5);
    for (const auto& [table, table_errors] : errors_by_table[gpu])
      e.mape_by_table[table] = summarize(table_errors).mean;
    result.mean_mape += e.mape;
    result.targets.push_back(std::move(e));
  }
  if (!result.targets.empty()) result.mean_mape /= static_cast<double>(result.targets.size());
  return result;
}

}  // namespace spotsim

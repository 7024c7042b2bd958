#include "steptime/op_efficiency_model.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace spotsim {

namespace {

constexpr double kMinLogEfficiency = -6.907755278982137;  // log(0.001)

// The raw log-dimensions a model is clamped on: GEMM (batch, M, N, K); rows (bytes, row length, -, -).
std::array<double, 4> log_dimensions(OpKind kind, const OpShape& s) {
  if (kind == OpKind::Gemm) return {std::log(s.batch), std::log(s.m), std::log(s.n), std::log(s.k)};
  return {std::log(s.bytes()), std::log(s.row_length), 0.0, 0.0};
}

std::size_t dimension_count(OpKind kind) { return kind == OpKind::Gemm ? 4 : 2; }

// phi: a quadratic in the log-dimensions. GEMM: log FLOPs F, log arithmetic intensity A (FLOP per byte of
// operands and result), and the single dimensions, whose squares and products carry the tile-shape effects
// (a K too short to amortise a tile's loads, an M or N that wastes part of the last tile).
std::vector<double> features_from_logs(OpKind kind, const std::array<double, 4>& x) {
  if (kind == OpKind::Gemm) {
    const double b = x[0], m = x[1], n = x[2], k = x[3];
    const double flops = std::log(2.0) + b + m + n + k;
    const double bytes = std::log(4.0) + b + std::log(std::exp(m + k) + std::exp(k + n) + std::exp(m + n));
    const double a = flops - bytes;
    return {1.0, flops, flops * flops, a, a * a, k, flops * a, k * k, m, n, b, m * m, n * n, b * b, m * n, k * b};
  }
  const double bytes = x[0], h = x[1];
  return {1.0, bytes, bytes * bytes, h, h * h, bytes * h};
}

// The NeuSight GPU whose tables describe `gpu`'s chip.
std::string model_gpu_name(const std::string& gpu, OpKind kind) {
  if (gpu == "V100") return "V100-PCIE";
  if (gpu == "A100-40GB") return "A100-40GB-PCIE";
  if (gpu == "A100-80GB") return "A100-80GB-PCIE";
  if (gpu == "H100-PCIE") return "H100";
  if (gpu == "H200" && kind == OpKind::Gemm) return "H100";  // same SMs and clocks; HBM differs
  return gpu;
}

// phi of `shape` with each log-dimension clamped to the model's fitted range.
std::vector<double> clamped_features(const OpEfficiencyModel& model, const OpShape& shape) {
  std::array<double, 4> x = log_dimensions(model.kind, shape);
  for (std::size_t i = 0; i < dimension_count(model.kind); ++i)
    x[i] = std::clamp(x[i], model.log_min[i], model.log_max[i]);
  return features_from_logs(model.kind, x);
}

const char* enumerator_name(OpKind kind) {
  switch (kind) {
    case OpKind::Gemm: return "Gemm";
    case OpKind::LayerNorm: return "LayerNorm";
    case OpKind::Softmax: return "Softmax";
    case OpKind::None: break;
  }
  return "None";
}

}  // namespace

bool covers(const OpEfficiencyModel& model, const OpShape& shape) {
  if (shape.kind != model.kind) return false;
  const std::array<double, 4> x = log_dimensions(model.kind, shape);
  const double slack = std::log(kRangeSlack) + 1e-9;  // inclusive: exactly a factor 2 outside is still covered
  for (std::size_t i = 0; i < dimension_count(model.kind); ++i) {
    if (!(x[i] >= model.log_min[i] - slack && x[i] <= model.log_max[i] + slack)) return false;
  }
  return true;
}

double log_efficiency(const OpEfficiencyModel& model, const OpShape& shape) {
  const std::vector<double> phi = clamped_features(model, shape);
  double value = 0.0;
  for (std::size_t i = 0; i < phi.size() && i < model.coefficients.size(); ++i) value += phi[i] * model.coefficients[i];
  return std::clamp(value, kMinLogEfficiency, 0.0);
}

double op_work(const OpShape& shape) { return shape.kind == OpKind::Gemm ? shape.flops() : shape.bytes(); }

double op_peak_per_second(const GpuSpec& gpu, OpKind kind) {
  return kind == OpKind::Gemm ? gpu.peak(Precision::FP32) * 1e12 : gpu.memory_bandwidth_gbps * 1e9;
}

OpEfficiencyModel fit_op_efficiency_model(const GpuSpec& gpu, OpKind kind, const std::vector<OpSample>& samples) {
  OpEfficiencyModel model;
  model.gpu = gpu.name;
  model.kind = kind;
  model.samples = samples.size();
  const std::size_t dims = dimension_count(kind);
  model.log_min.fill(0.0);
  model.log_max.fill(0.0);
  for (std::size_t i = 0; i < dims; ++i) {
    model.log_min[i] = std::numeric_limits<double>::infinity();
    model.log_max[i] = -std::numeric_limits<double>::infinity();
  }
  for (const OpSample& s : samples) {
    const auto x = log_dimensions(kind, s.shape);
    for (std::size_t i = 0; i < dims; ++i) {
      model.log_min[i] = std::min(model.log_min[i], x[i]);
      model.log_max[i] = std::max(model.log_max[i], x[i]);
    }
  }
  const std::size_t p = features_from_logs(kind, {}).size();
  // Ridge least squares as an augmented system [X; sqrt(lambda) I] w = [y; 0], solved by QR: the features are
  // strongly collinear (F is the sum of the log-dimensions), which the normal equations would square.
  Eigen::MatrixXd a =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(samples.size() + p), static_cast<Eigen::Index>(p));
  Eigen::VectorXd y = Eigen::VectorXd::Zero(a.rows());
  const double peak = op_peak_per_second(gpu, kind);
  for (std::size_t r = 0; r < samples.size(); ++r) {
    const std::vector<double> phi = features_from_logs(kind, log_dimensions(kind, samples[r].shape));
    for (std::size_t c = 0; c < p; ++c) a(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = phi[c];
    y(static_cast<Eigen::Index>(r)) = std::log(op_work(samples[r].shape) / samples[r].seconds / peak);
  }
  for (std::size_t c = 0; c < p; ++c) {
    a(static_cast<Eigen::Index>(samples.size() + c), static_cast<Eigen::Index>(c)) = std::sqrt(kOpModelRidge);
  }
  const Eigen::VectorXd w = a.colPivHouseholderQr().solve(y);
  model.coefficients.assign(w.data(), w.data() + w.size());
  return model;
}

const OpEfficiencyModel* find_op_model(const std::vector<OpEfficiencyModel>& models, const GpuSpec& gpu, OpKind kind) {
  const std::string name = model_gpu_name(gpu.name, kind);
  for (const OpEfficiencyModel& m : models) {
    if (m.gpu == name && m.kind == kind) return &m;
  }
  return nullptr;
}

double predict_op_time_us(const OpShape& shape, double measured_us, const GpuSpec& measured, const GpuSpec& target,
                          const std::vector<OpEfficiencyModel>& models) {
  const OpKind kind = shape.kind;
  if (kind == OpKind::None) return NAN;
  const OpEfficiencyModel* from = find_op_model(models, measured, kind);
  const OpEfficiencyModel* to = find_op_model(models, target, kind);
  if (from == nullptr || to == nullptr || !(measured_us > 0.0) || !covers(*from, shape) || !covers(*to, shape))
    return NAN;
  const double peak_from = op_peak_per_second(measured, kind);
  const double peak_to = op_peak_per_second(target, kind);
  const double log_eff_from = log_efficiency(*from, shape);
  const double log_eff_to = log_efficiency(*to, shape);
  const double log_direct = std::log(op_work(shape) / peak_to * 1e6) - log_eff_to;
  const double log_rescaled = std::log(measured_us * peak_from / peak_to) + log_eff_from - log_eff_to;
  return std::exp((1.0 - kMeasurementWeight) * log_direct + kMeasurementWeight * log_rescaled);
}

std::string op_models_source(const std::vector<OpEfficiencyModel>& models) {
  std::ostringstream out;
  out << std::setprecision(17);
  out << "// Generated by `spotsim steptime --fit-op-models <shared>/data/kernels` from the calibration half of the\n"
         "// NeuSight op tables (op_efficiency_model.hpp); tests/steptime/calibration_test.cpp refits and compares.\n"
         "// Do not edit by hand.\n"
         "#include \"steptime/op_efficiency_model.hpp\"\n\n"
         "namespace spotsim {\n\n"
         "const std::vector<OpEfficiencyModel>& committed_op_efficiency_models() {\n"
         "  static const std::vector<OpEfficiencyModel> models = {\n";
  const auto list = [&](const auto& values) {
    out << "{";
    for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
    out << "}";
  };
  for (const OpEfficiencyModel& m : models) {
    out << "      {\"" << m.gpu << "\", OpKind::" << enumerator_name(m.kind) << ",\n       ";
    list(m.coefficients);
    out << ",\n       ";
    list(m.log_min);
    out << ", ";
    list(m.log_max);
    out << ", " << m.samples << "},\n";
  }
  out << "  };\n  return models;\n}\n\n}  // namespace spotsim\n";
  return out.str();
}

}  // namespace spotsim

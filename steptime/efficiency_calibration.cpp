#include "steptime/efficiency_calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "base/statistics.hpp"
#include "steptime/csv_table.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {

namespace {

bool binary_elementwise(const std::string& op) { return op == "add" || op == "mul" || op == "div" || op == "pow"; }

KernelFamily family_of_table(const std::string& table) {
  if (table == "linear" || table == "bmm") return KernelFamily::Gemm;
  if (table == "ln") return KernelFamily::Normalization;
  if (table == "softmax") return KernelFamily::Reduction;
  return KernelFamily::Elementwise;
}

void read_op_table(const std::string& dir, const std::string& table, std::vector<OpMeasurement>& out) {
  const CsvTable csv = CsvTable::read(dir + "/test_" + table + ".csv");
  const bool matrix = table == "linear" || table == "bmm";
  const std::size_t c_op = csv.column("OPName"), c_latency = csv.column("Latency"), c_device = csv.column("Device");
  const std::size_t c_gx = csv.column("Grid x"), c_gy = csv.column("Grid y"), c_gz = csv.column("Grid z");
  const std::size_t c_bx = csv.column("Block x"), c_by = csv.column("Block y"), c_bz = csv.column("Block z");
  const std::vector<std::string> dims =
      matrix ? std::vector<std::string>{"B", "M", "N", "K"} : std::vector<std::string>{"B", "H"};
  std::vector<std::size_t> c_dims;
  for (const auto& d : dims) c_dims.push_back(csv.column(d));
  for (std::size_t r = 0; r < csv.rows(); ++r) {
    const GpuSpec* gpu = match_device_name(csv.text(r, c_device));
    if (gpu == nullptr) continue;
    OpMeasurement m;
    m.table = table;
    m.op = csv.text(r, c_op);
    m.gpu = gpu->name;
    m.shape = table + ":" + m.op;
    double product = 1.0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      m.shape += " " + dims[i] + "=" + csv.text(r, c_dims[i]);
      product *= csv.number(r, c_dims[i]);
    }
    m.latency_us = csv.number(r, c_latency) * 1000.0;  // the tables are in milliseconds
    if (matrix) {
      m.dims = OpShape::gemm(csv.number(r, c_dims[0]), csv.number(r, c_dims[1]), csv.number(r, c_dims[2]),
                             csv.number(r, c_dims[3]));
      m.flops = m.dims.flops();
    } else {
      if (table != "elem") {
        m.dims = OpShape::row_op(table == "ln" ? OpKind::LayerNorm : OpKind::Softmax, csv.number(r, c_dims[0]),
                                 csv.number(r, c_dims[1]));
      }
      const double inputs = table == "elem" && binary_elementwise(m.op) ? 2.0 : 1.0;
      m.bytes = (inputs + 1.0) * product * 4.0;  // fp32 inputs read + output written
    }
    GpuActivity& k = m.kernel;
    k.duration_us = m.latency_us;
    k.kind.family = family_of_table(table);
    k.kind.kernel_class = matrix ? KernelClass::Matrix : KernelClass::MemoryBound;
    k.kind.precision = Precision::FP32;
    k.grid_blocks = static_cast<std::int64_t>(csv.number(r, c_gx) * csv.number(r, c_gy) * csv.number(r, c_gz));
    k.block_threads = static_cast<std::int32_t>(csv.number(r, c_bx) * csv.number(r, c_by) * csv.number(r, c_bz));
    out.push_back(std::move(m));
  }
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return percentile_sorted(v, 0.5);
}

void add_deepbench(const std::string& path, std::vector<FractionEstimate>& out) {
  const CsvTable csv = CsvTable::read(path);
  const std::size_t c_device = csv.column("device"), c_precision = csv.column("precision"),
                    c_tflops = csv.column("tflops");
  struct Target {
    const char* device;
    const char* precision;
    const char* gpu;
    const char* quantity;
    Precision peak;
  };
  // DeepBench's "NV_V100" is the SXM2 card of a DGX-1; its fp16 rows are tensor-core GEMMs with fp32 accumulation.
  const Target targets[] = {{"NV_V100", "fp32", "V100", "matrix.fp32", Precision::FP32},
                            {"NV_V100", "fp16in_fp16mul_fp32acc", "V100", "matrix.fp16", Precision::FP16},
                            {"NV_T4", "fp32", "T4", "matrix.fp32", Precision::FP32},
                            {"NV_T4", "fp16in_fp16mul_fp32acc", "T4", "matrix.fp16", Precision::FP16}};
  for (const Target& t : targets) {
    const double peak = gpu_spec_or_throw(t.gpu, path).peak(t.peak);
    std::vector<double> fractions;
    for (std::size_t r = 0; r < csv.rows(); ++r) {
      if (csv.text(r, c_device) == t.device && csv.text(r, c_precision) == t.precision) {
        fractions.push_back(csv.number(r, c_tflops) / peak);
      }
    }
    if (!fractions.empty()) out.push_back({t.gpu, t.quantity, "DeepBench", median_of(fractions), fractions.size()});
  }
}

// A DeepBench time cell: a positive number of milliseconds, or nothing ("N/A*" where a pass was not run).
std::optional<double> deepbench_ms(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(value > 0.0) || !std::isfinite(value)) return std::nullopt;
  return value;
}

struct DeepBenchConvolution {
  std::string device, app, precision, shape;  // shape: every dimension but the batch N
  int batch = 0;
  std::array<std::optional<double>, 3> ms;  // forward, backward data, backward filter
};

std::vector<DeepBenchConvolution> read_deepbench_convolutions(const std::string& path) {
  const CsvTable csv = CsvTable::read(path);
  const std::size_t c_device = csv.column("device"), c_precision = csv.column("precision"),
                    c_app = csv.column("source_app");
  const std::size_t c_batch = csv.column("N");
  std::vector<std::size_t> c_shape;
  for (const char* c : {"W", "H", "C", "K", "S_filter_w", "R_filter_h", "pad_w", "pad_h", "stride_w", "stride_h"}) {
    c_shape.push_back(csv.column(c));
  }
  const std::size_t c_pass[] = {csv.column("fwd_ms"), csv.column("bwd_data_ms"), csv.column("bwd_filter_ms")};
  std::vector<DeepBenchConvolution> rows;
  for (std::size_t r = 0; r < csv.rows(); ++r) {
    DeepBenchConvolution row{csv.text(r, c_device), csv.text(r, c_app), csv.text(r, c_precision), "", 0, {}};
    for (std::size_t c : c_shape) row.shape += csv.text(r, c) + ",";
    row.batch = std::atoi(csv.text(r, c_batch).c_str());
    for (std::size_t k = 0; k < 3; ++k) row.ms[k] = deepbench_ms(csv.text(r, c_pass[k]));
    if (row.batch > 0) rows.push_back(std::move(row));
  }
  return rows;
}

constexpr const char* kDeepBenchFp32 = "fp32";
constexpr const char* kDeepBenchFp16 = "fp16in_fp16mul_fp32acc";

// Summed time by batch and precision of the (shape, pass) cells of `device`/`app` measured at every batch in both
// precisions (a cell missing anywhere is left out everywhere, so every sum covers the same work).
struct BatchSums {
  std::map<int, double> fp32, fp16;  // batch -> ms
  std::size_t cells = 0;             // (shape, pass) cells in each sum
};

BatchSums sum_by_batch(const std::vector<DeepBenchConvolution>& rows, const std::string& device,
                       const std::string& app) {
  std::set<int> batches;
  // (precision, shape#occurrence, N): a layer the application repeats is listed once per use, and counts as often.
  std::map<std::tuple<std::string, std::string, int>, const DeepBenchConvolution*> cell;
  std::map<std::tuple<std::string, std::string, int>, int> occurrences;
  std::set<std::string> shapes;
  for (const DeepBenchConvolution& r : rows) {
    if (r.device != device || r.app != app || (r.precision != kDeepBenchFp32 && r.precision != kDeepBenchFp16))
      continue;
    batches.insert(r.batch);
    const std::string use = r.shape + "#" + std::to_string(occurrences[{r.precision, r.shape, r.batch}]++);
    shapes.insert(use);
    cell.emplace(std::make_tuple(r.precision, use, r.batch), &r);
  }
  BatchSums sums;
  for (const std::string& shape : shapes) {
    for (std::size_t k = 0; k < 3; ++k) {
      bool everywhere = true;
      for (const char* precision : {kDeepBenchFp32, kDeepBenchFp16}) {
        for (int n : batches) {
          const auto it = cell.find({precision, shape, n});
          everywhere = everywhere && it != cell.end() && it->second->ms[k].has_value();
        }
      }
      if (!everywhere) continue;
      ++sums.cells;
      for (int n : batches) {
        sums.fp32[n] += *cell.at({kDeepBenchFp32, shape, n})->ms[k];
        sums.fp16[n] += *cell.at({kDeepBenchFp16, shape, n})->ms[k];
      }
    }
  }
  return sums;
}

// T(N) = a + b N through the sums at batches n0 < n1.
std::pair<double, double> fit_through(const std::map<int, double>& sums, int n0, int n1) {
  const double b = (sums.at(n1) - sums.at(n0)) / (n1 - n0);
  return {sums.at(n0) - b * n0, b};
}

// ResNet-50's own layers as DeepBench took them (source_app "Resnet", batches 8 and 16), both precisions: the
// convolution batch curve of gpu_spec_table.hpp. The FP32 CUDA-core convolutions of a trace are rescaled by it
// (docs/step-time.md#precision).
void add_deepbench_resnet_convolutions(const std::vector<DeepBenchConvolution>& rows,
                                       std::vector<FractionEstimate>& out) {
  struct Target {
    const char* device;
    const char* gpu;
  };
  for (const Target t : {Target{"NV_V100", "V100"}, Target{"NV_T4", "T4"}}) {
    const BatchSums sums = sum_by_batch(rows, t.device, "Resnet");
    if (sums.cells == 0 || sums.fp32.size() != 2) continue;
    const int n0 = sums.fp32.begin()->first, n1 = sums.fp32.rbegin()->first;
    const auto [a32, b32] = fit_through(sums.fp32, n0, n1);
    const auto [a16, b16] = fit_through(sums.fp16, n0, n1);
    const std::string source =
        "DeepBench ResNet-50 convolutions, batches " + std::to_string(n0) + " and " + std::to_string(n1);
    out.push_back({t.gpu, "convolution.fp16_speedup_large_batch", source, b32 / b16, sums.cells});
    out.push_back({t.gpu, "convolution.half_batch_fp32", source, a32 / b32, sums.cells});
    out.push_back({t.gpu, "convolution.half_batch_fp16", source, a16 / b16, sums.cells});
  }
}

}  // namespace

std::vector<OpMeasurement> read_neusight_ops(const std::string& op_latency_dir) {
  std::vector<OpMeasurement> ops;
  for (const char* table : {"linear", "bmm", "elem", "ln", "softmax"}) read_op_table(op_latency_dir, table, ops);
  return ops;
}

std::vector<OpEfficiencyModel> fit_op_efficiency_models(const std::vector<OpMeasurement>& ops) {
  std::map<std::pair<std::string, OpKind>, std::vector<OpSample>> samples;
  for (const OpMeasurement& m : ops) {
    if (!in_calibration_half(m.shape) || m.dims.kind == OpKind::None) continue;
    samples[{m.gpu, m.dims.kind}].push_back({m.dims, m.latency_us * 1e-6});
  }
  std::vector<OpEfficiencyModel> models;
  for (const auto& [key, list] : samples) {
    models.push_back(fit_op_efficiency_model(gpu_spec_or_throw(key.first, "op model"), key.second, list));
  }
  return models;
}

bool in_calibration_half(const std::string& shape) {
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a, 64 bit
  for (unsigned char c : shape) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return (hash >> 7) % 2 == 0;
}

std::vector<FractionEstimate> calibrate_achieved_fractions(const std::string& kernels_dir) {
  const auto ops = read_neusight_ops(kernels_dir + "/tables/neusight/op_latency");
  std::map<std::pair<std::string, std::string>, std::vector<double>> fractions;
  for (const OpMeasurement& m : ops) {
    if (!in_calibration_half(m.shape)) continue;
    const GpuSpec& gpu = gpu_spec_or_throw(m.gpu, "calibration");
    const double seconds = m.latency_us * 1e-6;
    if (m.flops > 0.0) {
      fractions[{m.gpu, "matrix.fp32"}].push_back(m.flops / seconds / (gpu.peak(Precision::FP32) * 1e12));
    } else {
      const std::string quantity = to_string(m.kernel.kind.family);
      fractions[{m.gpu, quantity}].push_back(m.bytes / seconds / (gpu.memory_bandwidth_gbps * 1e9));
    }
  }
  std::vector<FractionEstimate> out;
  for (auto& [key, values] : fractions)
    out.push_back({key.first, key.second, "NeuSight", median_of(values), values.size()});
  add_deepbench(kernels_dir + "/tables/deepbench/deepbench_train_gemm.csv", out);
  add_deepbench_resnet_convolutions(
      read_deepbench_convolutions(kernels_dir + "/tables/deepbench/deepbench_train_conv.csv"), out);
  return out;
}

std::vector<BatchCurveCheck> check_convolution_batch_curves(const std::string& kernels_dir) {
  const auto rows = read_deepbench_convolutions(kernels_dir + "/tables/deepbench/deepbench_train_conv.csv");
  std::set<std::pair<std::string, std::string>> groups;  // (device, app) of the two spec-table GPUs
  for (const DeepBenchConvolution& r : rows) {
    if (r.device == "NV_V100" || r.device == "NV_T4") groups.insert({r.device, r.app});
  }
  std::vector<BatchCurveCheck> checks;
  for (const auto& [device, app] : groups) {
    const BatchSums sums = sum_by_batch(rows, device, app);
    if (sums.cells == 0 || !sums.fp32.contains(8) || !sums.fp32.contains(16) || sums.fp32.size() < 3) continue;
    const std::string gpu = device == "NV_V100" ? "V100" : "T4";
    for (const bool fp16 : {false, true}) {
      const std::map<int, double>& by_batch = fp16 ? sums.fp16 : sums.fp32;
      const auto [a, b] = fit_through(by_batch, 8, 16);
      for (const auto& [n, measured] : by_batch) {
        if (n != 8 && n != 16) checks.push_back({gpu, app, fp16 ? "fp16" : "fp32", n, measured, a + b * n, sums.cells});
      }
    }
  }
  return checks;
}

}  // namespace spotsim

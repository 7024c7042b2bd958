#pragma once
// Calibration of the achieved fractions in the GPU spec table from measured tables (docs/step-time.md#
// calibration): NeuSight's per-op latencies (Lee et al., ASPLOS'25; FP32, TF32 off) and Baidu DeepBench's
// training GEMMs. The NeuSight ops are split in two halves by a hash of the op's shape; only the calibration
// half sets fractions, the other half is kept for validation (op_table_validation.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "steptime/kineto_trace.hpp"
#include "steptime/op_efficiency_model.hpp"
#include "steptime/op_shape.hpp"

namespace spotsim {

struct OpMeasurement {
  std::string table;  // "linear", "bmm", "elem", "ln", "softmax"
  std::string op;     // NeuSight OPName: "linear", "add", "relu", ...
  std::string shape;  // op name and dimensions; identifies the same op across GPUs
  std::string gpu;    // spec-table name of the GPU it was measured on
  double latency_us = 0;
  double flops = 0;    // matrix ops
  double bytes = 0;    // memory-bound ops: bytes read + written
  GpuActivity kernel;  // as a trace would record it: duration, grid, block, class (no registers)
  OpShape dims;        // GEMM B, M, N, K; layer norm and softmax rows x H; none for elementwise ops
};

// Reads test_{linear,bmm,elem,ln,softmax}.csv from `op_latency_dir`; rows of GPUs outside the spec table
// (P100, P4) are skipped.
std::vector<OpMeasurement> read_neusight_ops(const std::string& op_latency_dir);
// Deterministic half split by an FNV-1a hash of `shape`.
bool in_calibration_half(const std::string& shape);

struct FractionEstimate {
  std::string gpu;       // spec-table name
  std::string quantity;  // "matrix.fp32", "matrix.fp16", "elementwise", "normalization", "reduction",
                         // "convolution.fp16_speedup_large_batch", "convolution.half_batch_fp32" / "_fp16"
  std::string source;    // "NeuSight" or "DeepBench"
  double value = 0;      // median of achieved / peak
  std::size_t samples = 0;
};

// `kernels_dir` is shared/data/kernels (tables/neusight/op_latency and tables/deepbench inside).
std::vector<FractionEstimate> calibrate_achieved_fractions(const std::string& kernels_dir);

// The convolution batch curve's form, T(N) = a + b N, out of sample: fitted through batches 8 and 16 of every
// DeepBench application measured at more batches on V100 and T4 (DeepSpeech: 4, 8, 16, 32), predicting the others.
struct BatchCurveCheck {
  std::string gpu, app, precision;  // precision "fp32" or "fp16"
  int batch = 0;
  double measured_ms = 0, predicted_ms = 0;  // summed over the cells measured at every batch
  std::size_t cells = 0;
};
std::vector<BatchCurveCheck> check_convolution_batch_curves(const std::string& kernels_dir);

// One op-level efficiency model per (GPU, op kind) from the calibration half of `ops` (ops with dimensions:
// GEMMs, layer norm, softmax).
std::vector<OpEfficiencyModel> fit_op_efficiency_models(const std::vector<OpMeasurement>& ops);

}  // namespace spotsim

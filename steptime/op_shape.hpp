#pragma once
// The dimensions of the operator that launched a kernel, when the trace records them (PyTorch profiler
// `record_shapes=True`: "Input Dims" on aten::mm/addmm/bmm/baddbmm, aten::native_layer_norm, aten::_softmax)
// or a table gives them (NeuSight). With a shape, the op-level efficiency model (op_efficiency_model.hpp)
// predicts the op on another GPU; without one, kernels are scaled by calibrated rates alone.
#include <cstdint>

namespace spotsim {

// Op kinds the op-level model covers. Layer norm and softmax are row ops: `rows` independent rows of
// `row_length` fp32 values, each read once and written once.
enum class OpKind : std::uint8_t {
  None,
  Gemm,  // batch x (M x K) . (K x N), fp32
  LayerNorm,
  Softmax,
};

struct OpShape {
  OpKind kind = OpKind::None;
  double batch = 1.0, m = 0.0, n = 0.0, k = 0.0;  // Gemm
  double rows = 0.0, row_length = 0.0;            // LayerNorm, Softmax

  static OpShape gemm(double batch, double m, double n, double k) {
    OpShape s;
    s.kind = OpKind::Gemm;
    s.batch = batch;
    s.m = m;
    s.n = n;
    s.k = k;
    return s;
  }
  static OpShape row_op(OpKind kind, double rows, double row_length) {
    OpShape s;
    s.kind = kind;
    s.rows = rows;
    s.row_length = row_length;
    return s;
  }

  double flops() const { return 2.0 * batch * m * n * k; }
  // Bytes an fp32 op moves at least once: both GEMM operands and the result; a row op's input and output.
  double bytes() const {
    return kind == OpKind::Gemm ? 4.0 * batch * (m * k + k * n + m * n) : 2.0 * 4.0 * rows * row_length;
  }
};

}  // namespace spotsim

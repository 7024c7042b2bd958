#include "steptime/op_shape_from_trace.hpp"

#include <cstddef>

namespace spotsim {

namespace {

bool all_positive(const std::vector<double>& dims) {
  if (dims.empty()) return false;
  for (double d : dims) {
    if (!(d >= 1.0)) return false;
  }
  return true;
}

bool is_fp32(const std::vector<std::string>& types, std::size_t i) { return i < types.size() && types[i] == "float"; }

// a: [M, K] or [B, M, K]; b: [K, N] or [B, K, N], with the batch present in both or neither.
OpShape gemm_shape(const std::vector<double>& a, const std::vector<double>& b, std::size_t rank) {
  if (a.size() != rank || b.size() != rank || !all_positive(a) || !all_positive(b)) return {};
  const std::size_t o = rank - 2;  // offset of M (and of K in b)
  if (a[o + 1] != b[o] || (rank == 3 && a[0] != b[0])) return {};
  return OpShape::gemm(rank == 3 ? a[0] : 1.0, a[o], b[o + 1], a[o + 1]);
}

}  // namespace

bool is_shaped_operator(const std::string& name) {
  return name == "aten::mm" || name == "aten::addmm" || name == "aten::bmm" || name == "aten::baddbmm" ||
         name == "aten::native_layer_norm" || name == "aten::_softmax";
}

OpShape op_shape_from_inputs(const std::string& name, std::span<const std::vector<double>> dims,
                             const std::vector<std::string>& types) {
  // The matrix operands' positions: mm/bmm (self, mat2); addmm/baddbmm (bias, mat1, mat2).
  const bool with_bias = name == "aten::addmm" || name == "aten::baddbmm";
  const bool batched = name == "aten::bmm" || name == "aten::baddbmm";
  if (name == "aten::mm" || name == "aten::addmm" || batched) {
    const std::size_t first = with_bias ? 1 : 0;
    if (dims.size() < first + 2 || !is_fp32(types, first) || !is_fp32(types, first + 1)) return {};
    return gemm_shape(dims[first], dims[first + 1], batched ? 3 : 2);
  }
  if (name == "aten::native_layer_norm" || name == "aten::_softmax") {
    if (dims.empty() || !all_positive(dims[0]) || !is_fp32(types, 0)) return {};
    double rows = 1.0;
    for (std::size_t i = 0; i + 1 < dims[0].size(); ++i) rows *= dims[0][i];
    return OpShape::row_op(name == "aten::_softmax" ? OpKind::Softmax : OpKind::LayerNorm, rows, dims[0].back());
  }
  return {};
}

}  // namespace spotsim

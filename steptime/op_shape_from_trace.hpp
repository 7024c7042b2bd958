#pragma once
// Turns a profiler operator's recorded inputs ("Input Dims" and "Input type", PyTorch profiler with
// `record_shapes=True`) into the op shape the op-level model takes, for the operators that launch the kernels
// it models: aten::mm, aten::addmm, aten::bmm, aten::baddbmm (GEMMs), aten::native_layer_norm and
// aten::_softmax (row ops; the normalised or softmax dimension is taken to be the last one, as in transformer
// layers). Anything else, non-fp32 inputs, or dimensions that do not fit together give OpKind::None.
#include <span>
#include <string>
#include <vector>

#include "steptime/op_shape.hpp"

namespace spotsim {

// True for the operator names above: the reader keeps inputs only for these.
bool is_shaped_operator(const std::string& name);

OpShape op_shape_from_inputs(const std::string& name, std::span<const std::vector<double>> input_dims,
                             const std::vector<std::string>& input_types);

}  // namespace spotsim

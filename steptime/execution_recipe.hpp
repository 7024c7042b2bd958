#pragma once
// What the target run executes differently from the traced one, beyond precision (docs/step-time.md#recipe):
// options the user states, each turned into per-kernel traffic factors derived from the trace's own kernels.
//
//   --layout channels-last   PyTorch memory_format=torch.channels_last: cuDNN runs NHWC convolutions directly,
//                            so its NCHW<->NHWC layout-transform kernels (nchwToNhwc/nhwcToNchw) disappear.
//   --fuse-norm-activation   a batch-norm kernel absorbs the elementwise ReLU/add next to it (cuDNN's
//                            cudnnBatchNormalizationForwardTrainingEx / BackwardEx with CUDNN_BATCHNORM_OPS_BN_
//                            ACTIVATION or _BN_ADD_ACTIVATION; apex/MXNet NHWC batch norm): the separate kernel
//                            goes, and the batch norm moves only the extra tensor it now reads.
#include <string>
#include <string_view>
#include <vector>

#include "steptime/kineto_trace.hpp"

namespace spotsim {

enum class MemoryLayout { AsRecorded, ChannelsLast };

struct ExecutionRecipe {
  MemoryLayout layout = MemoryLayout::AsRecorded;
  bool fuse_norm_activation = false;
  bool changes_anything() const { return layout != MemoryLayout::AsRecorded || fuse_norm_activation; }
};

// Throws InputError naming `what` unless `text` is as-recorded or channels-last.
MemoryLayout parse_memory_layout(const std::string& text, const std::string& what);
std::string to_string(MemoryLayout layout);

// Fraction of a kernel's traffic (so of its time) that remains when fused into the adjacent batch norm, from the
// tensors each side moves (n = elements of the activation):
//   ReLU after BN forward:        reads n, writes n; the fused BN applies it in registers       -> 0
//   add after BN forward:         reads 2n, writes n; the fused BN reads the residual (n) too    -> 1/3
//   ReLU backward before BN back: reads 2n, writes n; the fused BN reads the output mask (n)     -> 1/3
constexpr double kFusedReluForwardTraffic = 0.0;
constexpr double kFusedAddTraffic = 1.0 / 3.0;
constexpr double kFusedReluBackwardTraffic = 1.0 / 3.0;

// Per activity of `trace`, the factor its time is multiplied by under `recipe` (1 = unchanged). `activities`
// are the indices of one step's activities; kernels are taken in start order per stream, so "next to" means
// consecutive on the same stream.
void apply_execution_recipe(const KinetoTrace& trace, const std::vector<std::size_t>& activities,
                            const ExecutionRecipe& recipe, std::vector<double>& factor);

}  // namespace spotsim

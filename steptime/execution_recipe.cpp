#include "steptime/execution_recipe.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "base/errors.hpp"
#include "steptime/kernel_names.hpp"

namespace spotsim {

namespace {

using kernel_names::lower;

bool has(const std::string& n, std::string_view needle) { return n.find(needle) != std::string::npos; }

// cuDNN's layout transforms around convolutions on a tensor whose layout the convolution does not take.
bool layout_transform(const std::string& n) { return has(n, "nchwtonhwc") || has(n, "nhwctonchw"); }

// Batch-norm kernels by direction: cuDNN (bn_fw_*, bn_bw_*; "batchnorm" forward/backward in newer names) and
// PyTorch's native ones (batch_norm_*, with "backward" in the backward ones).
bool batch_norm(const std::string& n) {
  return has(n, "bn_fw") || has(n, "bn_bw") || has(n, "batch_norm") || has(n, "batchnorm");
}
bool batch_norm_backward(const std::string& n) {
  return batch_norm(n) && (has(n, "bn_bw") || has(n, "backward") || has(n, "bwd"));
}
bool batch_norm_forward(const std::string& n) { return batch_norm(n) && !batch_norm_backward(n); }

// ReLU forward is clamp_min (PyTorch >= 1.13) or threshold/relu; ReLU backward is threshold_backward, whose
// elementwise kernel PyTorch names threshold_kernel. Adds: add kernels on tensors (not the "_add<long>" counter
// updates of batch norm, which run on one element).
bool relu_forward(const std::string& n) { return has(n, "clamp") || (has(n, "relu") && !has(n, "backward")); }
bool relu_backward(const std::string& n) { return has(n, "threshold"); }
bool tensor_add(const std::string& n) { return has(n, "add") && !has(n, "<long>") && !has(n, "onself"); }

}  // namespace

MemoryLayout parse_memory_layout(const std::string& text, const std::string& what) {
  if (text == "as-recorded") return MemoryLayout::AsRecorded;
  if (text == "channels-last") return MemoryLayout::ChannelsLast;
  throw InputError(what + ": expected as-recorded or channels-last, got '" + text + "'");
}

std::string to_string(MemoryLayout layout) {
  return layout == MemoryLayout::ChannelsLast ? "channels-last" : "as-recorded";
}

void apply_execution_recipe(const KinetoTrace& trace, const std::vector<std::size_t>& activities,
                            const ExecutionRecipe& recipe, std::vector<double>& factor) {
  if (!recipe.changes_anything()) return;
  std::map<std::int32_t, std::vector<std::size_t>> by_stream;
  for (std::size_t i : activities) {
    const KernelClass c = trace.activities[i].kind.kernel_class;
    if (c == KernelClass::MemoryBound || c == KernelClass::Matrix || c == KernelClass::Other) {
      by_stream[trace.activities[i].stream].push_back(i);
    }
  }
  for (auto& [stream, list] : by_stream) {
    std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
      return trace.activities[a].start_us < trace.activities[b].start_us;
    });
    std::vector<std::string> names;
    names.reserve(list.size());
    for (std::size_t i : list) names.push_back(lower(trace.name_of(trace.activities[i])));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string& n = names[k];
      double& f = factor[list[k]];
      if (recipe.layout == MemoryLayout::ChannelsLast && layout_transform(n)) f = 0.0;
      if (!recipe.fuse_norm_activation || trace.activities[list[k]].kind.kernel_class != KernelClass::MemoryBound)
        continue;
      const bool after_bn = k >= 1 && batch_norm_forward(names[k - 1]);
      const bool after_bn_add = k >= 2 && batch_norm_forward(names[k - 2]) && tensor_add(names[k - 1]);
      const bool before_bn_backward = k + 1 < list.size() && batch_norm_backward(names[k + 1]);
      if (relu_forward(n) && (after_bn || after_bn_add))
        f *= kFusedReluForwardTraffic;
      else if (tensor_add(n) && after_bn)
        f *= kFusedAddTraffic;
      else if (relu_backward(n) && before_bn_backward)
        f *= kFusedReluBackwardTraffic;
    }
  }
}

}  // namespace spotsim

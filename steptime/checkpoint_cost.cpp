#include "steptime/checkpoint_cost.hpp"

#include <cmath>

#include "base/errors.hpp"

namespace spotsim {

const std::vector<TrainingStateLayout>& training_state_layouts() {
  static const std::vector<TrainingStateLayout> layouts = {
      {"adam-mixed", "fp16/bf16 weights and gradients, fp32 master weights, Adam m and v (ZeRO §3.1)", 2, 2, 4, 8},
      {"adam-fp32", "fp32 weights and gradients, Adam m and v", 4, 4, 0, 8},
      {"sgd-momentum-fp32", "fp32 weights and gradients, one momentum buffer", 4, 4, 0, 4},
      {"sgd-fp32", "fp32 weights and gradients, no optimizer state", 4, 4, 0, 0},
  };
  return layouts;
}

const TrainingStateLayout& training_state_layout(const std::string& name, const std::string& what) {
  std::string known;
  for (const auto& layout : training_state_layouts()) {
    if (layout.name == name) return layout;
    known += (known.empty() ? "" : ", ") + layout.name;
  }
  throw InputError(what + ": unknown training setup '" + name + "'; expected one of " + known);
}

CheckpointCost checkpoint_cost(const CheckpointSetup& setup, const std::string& where) {
  if (!(setup.parameters >= 1.0 && setup.parameters <= 1e14)) {
    throw InputError(where + ": parameters: expected a parameter count in [1, 1e14]");
  }
  if (!(setup.bytes_per_parameter > 0.0 && setup.bytes_per_parameter <= 64.0)) {
    throw InputError(where + ": bytes per parameter: expected a number in (0, 64]");
  }
  if (!(setup.write_gbps > 0.0 && std::isfinite(setup.write_gbps)) ||
      !(setup.read_gbps > 0.0 && std::isfinite(setup.read_gbps))) {
    throw InputError(where + ": storage bandwidth: expected write and read GB/s > 0");
  }
  if (setup.writers < 1) throw InputError(where + ": checkpoint writers: expected an integer >= 1");
  CheckpointCost cost;
  cost.size_bytes = setup.parameters * setup.bytes_per_parameter;
  cost.write_s = cost.size_bytes / (setup.write_gbps * 1e9 * setup.writers);
  cost.restore_s = cost.size_bytes / (setup.read_gbps * 1e9 * setup.writers);
  return cost;
}

}  // namespace spotsim

#pragma once
// Checkpoint size, write and restore time from the model's parameter count and training setup
// (docs/step-time.md#checkpoint-cost). Training state per parameter follows ZeRO (Rajbhandari et al., SC'20,
// §3.1): mixed-precision Adam holds 2 (fp16/bf16 weights) + 2 (gradients) + 12 (fp32 master weights, Adam m
// and v) = 16 bytes per parameter. A checkpoint stores everything needed to resume except the gradients,
// which the next step recomputes: 14 bytes per parameter for mixed-precision Adam.
#include <string>
#include <vector>

namespace spotsim {

struct TrainingStateLayout {
  std::string name;  // "adam-mixed"
  std::string description;
  double weight_bytes = 0;  // per parameter, the weights the forward pass uses
  double gradient_bytes = 0;
  double master_weight_bytes = 0;  // fp32 copy kept by mixed precision
  double optimizer_bytes = 0;      // optimizer moments

  double training_bytes() const { return weight_bytes + gradient_bytes + master_weight_bytes + optimizer_bytes; }
  double checkpoint_bytes() const { return weight_bytes + master_weight_bytes + optimizer_bytes; }
};

const std::vector<TrainingStateLayout>& training_state_layouts();
// Throws InputError naming `what` and listing the known layouts.
const TrainingStateLayout& training_state_layout(const std::string& name, const std::string& what);

struct CheckpointSetup {
  double parameters = 0;           // model parameters
  double bytes_per_parameter = 0;  // checkpointed bytes per parameter
  double write_gbps = 1.0;         // per writer, GB/s (10^9 bytes)
  double read_gbps = 1.0;          // per reader
  int writers = 1;                 // ranks writing (and later reading) disjoint shards in parallel
};

struct CheckpointCost {
  double size_bytes = 0;
  double write_s = 0;
  double restore_s = 0;
  // Whether an emergency checkpoint written after the preemption notice completes before the instance stops.
  bool fits_notice(double notice_s) const { return write_s <= notice_s; }
};

// Throws InputError if a field is out of range (`where` names the source, e.g. "spotsim steptime").
CheckpointCost checkpoint_cost(const CheckpointSetup& setup, const std::string& where);

}  // namespace spotsim

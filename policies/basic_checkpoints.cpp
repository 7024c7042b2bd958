// Checkpoint policies that need no model of the preemption process: none, fixed, continuous.
#include <memory>

#include "base/errors.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

// Never checkpoints: a preemption loses everything done on that instance.
class NoCheckpointPolicy final : public CheckpointPolicy {
 public:
  Millis next_interval(const Observation&) override { return kNever; }
  bool can_checkpoint() const override { return false; }
};

// A checkpoint every `interval` of compute, optionally also during a preemption notice.
class FixedCheckpointPolicy final : public CheckpointPolicy {
 public:
  FixedCheckpointPolicy(Millis interval, bool on_notice) : interval_(interval), on_notice_(on_notice) {}
  Millis next_interval(const Observation&) override { return interval_; }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  Millis interval_;
  bool on_notice_;
};

// Progress is never lost and saving it costs nothing: the model of Wu et al., "Can't Be Late" (NSDI'24), where a
// change of instance costs only the changeover delay (set --startup to it).
class ContinuousCheckpointPolicy final : public CheckpointPolicy {
 public:
  Millis next_interval(const Observation&) override { return kNever; }
  bool continuous() const override { return true; }
};

}  // namespace

void register_no_checkpoint(PolicyRegistry& registry) {
  registry.add(
      PolicyEntry<CheckpointPolicy>{"none", "never checkpoint: a preemption restarts the job from the beginning", "",
                                    [](const PolicyParams&) { return std::make_unique<NoCheckpointPolicy>(); }});
}

void register_fixed_checkpoint(PolicyRegistry& registry) {
  registry.add(PolicyEntry<CheckpointPolicy>{
      "fixed", "a checkpoint every N of compute", "interval=1h, on_notice=false (emergency checkpoint in the notice)",
      [](const PolicyParams& p) -> std::unique_ptr<CheckpointPolicy> {
        const Millis interval = p.positive_duration("interval", kMillisPerHour);
        return std::make_unique<FixedCheckpointPolicy>(interval, p.flag("on_notice", false));
      }});
}

void register_continuous_checkpoint(PolicyRegistry& registry) {
  registry.add(PolicyEntry<CheckpointPolicy>{
      "continuous", "progress is never lost, saving is free (the Can't Be Late model, Wu et al. NSDI'24)", "",
      [](const PolicyParams&) { return std::make_unique<ContinuousCheckpointPolicy>(); }});
}

}  // namespace spotsim

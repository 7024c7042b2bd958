#pragma once
// A checkpoint policy that forwards every call to the real one and notes the intervals it returns, per kind of
// instance, into the replication's RunResult. The engines reset the policy at the start of each replication and
// after their one-off probe of the on-demand interval (JobSimulation, ElasticSimulation), so the record is cleared
// there too and holds only the intervals the run itself used. Costs one extra virtual call per interval asked,
// nothing per event.
#include <memory>
#include <utility>

#include "base/time.hpp"
#include "model/policy_interfaces.hpp"
#include "model/run_result.hpp"

namespace spotsim {

class IntervalRecordingCheckpoint final : public CheckpointPolicy {
 public:
  explicit IntervalRecordingCheckpoint(std::unique_ptr<CheckpointPolicy> inner) : inner_(std::move(inner)) {}

  void reset() override {
    spot_ = {};
    on_demand_ = {};
    inner_->reset();
  }
  Millis next_interval(const Observation& obs) override {
    const Millis interval = inner_->next_interval(obs);
    if (interval != kNever) {
      if (obs.purchase == Purchase::kSpot) spot_.add(to_hours(interval));
      if (obs.purchase == Purchase::kOnDemand) on_demand_.add(to_hours(interval));
    }
    return interval;
  }
  bool varies_within_instance() const override { return inner_->varies_within_instance(); }
  bool checkpoint_on_notice() const override { return inner_->checkpoint_on_notice(); }
  bool can_checkpoint() const override { return inner_->can_checkpoint(); }
  bool continuous() const override { return inner_->continuous(); }

  // Copies the record of the replication just run into its result.
  void record_into(RunResult& result) const {
    result.checkpoint_interval_spot = spot_;
    result.checkpoint_interval_on_demand = on_demand_;
  }

 private:
  std::unique_ptr<CheckpointPolicy> inner_;
  CheckpointIntervalUse spot_;
  CheckpointIntervalUse on_demand_;
};

}  // namespace spotsim

// Hazard-aware checkpointing for non-exponential lifetimes: Young's interval with the instantaneous hazard of the
// job's nodes at their current age in place of 1/MTBF, tau(age) = sqrt(2 delta / lambda(age)), where
// lambda = nodes x h(age) for nodes of the same age. Under the bathtub model this checkpoints often in the first
// hour, rarely in the quiet middle, and often again as the 24 h limit approaches. For an exponential model it is
// exactly Young's interval. Without a lifetime model (recorded traces) it falls back to 1/MTBF.
#include <algorithm>
#include <cmath>
#include <memory>

#include "policies/policy_registry.hpp"
#include "traces/lifetime_distribution.hpp"

namespace spotsim {

namespace {

class HazardCheckpointPolicy final : public CheckpointPolicy {
 public:
  explicit HazardCheckpointPolicy(bool on_notice) : on_notice_(on_notice) {}

  Millis next_interval(const Observation& obs) override {
    if (obs.purchase != Purchase::kSpot) return kNever;
    const ZoneView& zone = obs.zones[static_cast<std::size_t>(obs.zone)];
    double rate_per_hour;
    if (zone.lifetime) {
      rate_per_hour = obs.job->nodes * zone.lifetime->hazard(to_hours(obs.instance_age));
    } else if (zone.spot_mtbf != kNever) {
      rate_per_hour = 1.0 / to_hours(zone.spot_mtbf);
    } else {
      return kNever;
    }
    const double delta_hours = to_hours(std::max<Millis>(obs.job->checkpoint_write, 1));
    if (!(rate_per_hour > 0.0)) return kNever;
    if (std::isinf(rate_per_hour)) return std::max<Millis>(obs.job->checkpoint_write, kMillisPerSecond);
    const double tau_hours = std::sqrt(2.0 * delta_hours / rate_per_hour);
    // Never below one write (more would spend most of the time checkpointing), never beyond a year.
    const double bounded = std::clamp(tau_hours, delta_hours, 24.0 * 365.0);
    return std::max<Millis>(1, millis_from_hours(bounded));
  }
  bool varies_within_instance() const override { return true; }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  bool on_notice_;
};

// Only the emergency checkpoint in the preemption notice, no periodic ones.
class OnNoticeCheckpointPolicy final : public CheckpointPolicy {
 public:
  Millis next_interval(const Observation&) override { return kNever; }
  bool checkpoint_on_notice() const override { return true; }
};

}  // namespace

void register_hazard_checkpoint(PolicyRegistry& registry) {
  registry.add(PolicyEntry<CheckpointPolicy>{
      "hazard", "interval sqrt(2 delta / lambda(age)) from the lifetime model's hazard at the instance's age",
      "on_notice=false", [](const PolicyParams& p) {
        return std::make_unique<HazardCheckpointPolicy>(p.flag("on_notice", false));
      }});
  registry.add(PolicyEntry<CheckpointPolicy>{
      "on-notice", "only an emergency checkpoint in the preemption notice, when the write fits", "",
      [](const PolicyParams&) { return std::make_unique<OnNoticeCheckpointPolicy>(); }});
}

}  // namespace spotsim

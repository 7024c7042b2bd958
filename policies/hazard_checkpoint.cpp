// Hazard-aware checkpointing for non-exponential lifetimes: Young's interval with the hazard of the job's nodes in
// place of 1/MTBF, tau(age) = sqrt(2 delta / lambda), where lambda = nodes x h for nodes of the same age, taken as
// the largest hazard over the interval itself (see next_interval). Under the bathtub model this checkpoints often in
// the first hour, rarely in the quiet middle, and often again as the 24 h limit approaches. For an exponential model it
// is exactly Young's interval. Without a lifetime model (recorded traces) it falls back to 1/MTBF.
#include <algorithm>
#include <cmath>
#include <memory>

#include "model/market/lifetime_distribution.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

class HazardCheckpointPolicy final : public CheckpointPolicy {
 public:
  explicit HazardCheckpointPolicy(bool on_notice) : on_notice_(on_notice) {}

  Millis next_interval(const Observation& obs) override {
    if (obs.purchase != Purchase::kSpot) return kNever;
    const ZoneView& zone = obs.zones[static_cast<std::size_t>(obs.zone)];
    const double delta_hours = to_hours(std::max<Millis>(obs.job->checkpoint_write, 1));
    if (!zone.lifetime) {
      if (zone.spot_mtbf == kNever) return kNever;
      return interval_for(delta_hours, 1.0 / to_hours(zone.spot_mtbf));
    }
    // The hazard must hold over the whole interval, not just at its start: in the quiet middle of a bathtub
    // lifetime the local hazard is tiny and would ask for an interval that runs into the rise before the 24 h
    // limit. So tau solves tau = sqrt(2 delta / max hazard on [age, age + tau]). For the models here the hazard
    // is monotone or bathtub-shaped, so its maximum over an interval is at one end; the right-hand side then
    // falls as tau grows, and bisection finds the crossing.
    const double age = to_hours(obs.instance_age);
    const int nodes = obs.job->nodes;
    const double at_start = nodes * zone.lifetime->hazard(age);
    const auto consistent = [&](double tau) {  // the interval the window's hazard allows, in hours
      const double rate = std::max(at_start, nodes * zone.lifetime->hazard(age + tau));
      return to_hours(interval_for(delta_hours, rate));
    };
    double hi = to_hours(interval_for(delta_hours, at_start));
    if (hi <= delta_hours || consistent(hi) >= hi) return millis_from_hours(hi);
    double lo = delta_hours;
    for (int it = 0; it < 40 && hi - lo > 1e-4; ++it) {
      const double mid = 0.5 * (lo + hi);
      (consistent(mid) >= mid ? lo : hi) = mid;
    }
    const double tau = lo;
    return millis_from_hours(tau);
  }

  bool varies_within_instance() const override { return true; }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  // sqrt(2 delta / rate), never below one write (more would spend most of the time checkpointing), never beyond
  // a year; kNever for a zero rate.
  static Millis interval_for(double delta_hours, double rate_per_hour) {
    if (!(rate_per_hour > 0.0)) return kNever;
    if (std::isinf(rate_per_hour)) return std::max<Millis>(millis_from_hours(delta_hours), kMillisPerSecond);
    const double tau_hours = std::clamp(std::sqrt(2.0 * delta_hours / rate_per_hour), delta_hours, 24.0 * 365.0);
    return std::max<Millis>(1, millis_from_hours(tau_hours));
  }

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
      "on_notice=false",
      [](const PolicyParams& p) { return std::make_unique<HazardCheckpointPolicy>(p.flag("on_notice", false)); }});
  registry.add(PolicyEntry<CheckpointPolicy>{
      "on-notice", "only an emergency checkpoint in the preemption notice, when the write fits", "",
      [](const PolicyParams&) { return std::make_unique<OnNoticeCheckpointPolicy>(); }});
}

}  // namespace spotsim

#pragma once
// Small hand-built markets and helpers shared by the engine tests.
#include <memory>
#include <optional>
#include <string>

#include "policies/policy_registry.hpp"
#include "engine/replication_runner.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim::testing {

// One zone, constant prices, spot preempted by `lifetime` (or never), always obtainable.
inline SpotMarket single_zone_market(std::optional<LifetimeDistribution> lifetime, double spot_price = 1.0,
                                     double on_demand_price = 3.0, Millis notice = 0) {
  SpotMarket market;
  market.name = "test";
  market.billing = Billing{0, 1};  // exact per-millisecond billing unless a test says otherwise
  Zone zone;
  zone.name = "test-a";
  zone.on_demand_price_per_hour = on_demand_price;
  zone.spot.price_per_hour = StepSeries::constant(spot_price);
  zone.spot.lifetime = std::move(lifetime);
  zone.spot.notice = notice;
  market.zones.push_back(std::move(zone));
  return market;
}

inline PolicyFactories policies(const std::string& selection, const std::string& checkpoint) {
  const PolicyRegistry registry = builtin_policy_registry();
  return PolicyFactories{registry.selection_factory(selection), registry.checkpoint_factory(checkpoint)};
}

inline JobSpec job(double work_hours, Millis write, Millis restore, Millis startup) {
  JobSpec j;
  j.work = millis_from_hours(work_hours);
  j.checkpoint_write = write;
  j.restore = restore;
  j.startup = startup;
  return j;
}

}  // namespace spotsim::testing

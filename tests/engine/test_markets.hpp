#pragma once
// Small hand-built markets and helpers shared by the engine tests.
#include <memory>
#include <optional>
#include <string>

#include "engine/replication_runner.hpp"
#include "model/market/spot_market.hpp"
#include "policies/policy_registry.hpp"
#include "tests/support/market_builder.hpp"

namespace spotsim::testing {

// One zone, constant prices, spot preempted by `lifetime` (or never), always obtainable.
inline SpotMarket single_zone_market(std::optional<LifetimeDistribution> lifetime, double spot_price = 1.0,
                                     double on_demand_price = 3.0, Millis notice = 0) {
  // Exact per-millisecond billing unless a test says otherwise.
  return MarketBuilder("test")
      .exact_billing()
      .zone("test-a")
      .on_demand(on_demand_price)
      .spot_price(spot_price)
      .lifetime(std::move(lifetime))
      .notice(notice)
      .build();
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

// Migration in the Can't Be Late tick mode (engine/tick_simulation.hpp, docs/migration.md): the transfer joins the
// changeover, egress is paid at the launch, the state moves when the changeover is over.
#include <gtest/gtest.h>

#include "engine/tick_simulation.hpp"
#include "migration_markets.hpp"

namespace spotsim {
namespace {

using testing::availability;
using testing::kEgressPerGb;
using testing::kSpotA;
using testing::kSpotB;
using testing::PreferZoneA;
using testing::two_zone_market;
using testing::ZoneAOnly;

constexpr Millis kMinute = kMillisPerMinute;
constexpr Millis kTick = 10 * kMinute;
constexpr double kSizeGb = 900.0;  // at 8 Gbit/s: 15 min of transfer, 18 USD of egress

// 100 min of lossless work, a 20 min changeover (two ticks).
JobSpec job() {
  JobSpec j;
  j.work = 100 * kMinute;
  j.startup = 20 * kMinute;
  j.checkpoint_size_gb = kSizeGb;
  return j;
}

RunResult run(SpotMarket market, SelectionPolicy& selection) {
  market.tick = kTick;
  const Scenario scenario(market, job(), TraceStart{false, 0});
  TickSimulation simulation(scenario, selection);
  return simulation.run(1, 0);
}

double ledger_sum(const RunResult& r) {
  return r.ledger_compute + r.ledger_lost_work + r.ledger_startup + r.ledger_restore + r.ledger_checkpoint +
         r.ledger_transfer + r.cost_egress + r.ledger_idle + r.ledger_rounding;
}

TEST(MigrationTicks, ChangeoverAddsTheTransferAndEgressIsPaidAtLaunch) {
  // a has spot for ticks 0-5. On a: 2 ticks of start-up, 4 of work (40 min). At 60 min, b: 2 ticks of start-up,
  // 15 min of transfer (tick 8 and half of tick 9), then 5 + 50 + 5 min of work, finishing at 155 min.
  const SpotMarket market = two_zone_market(availability({0, 60 * kMinute}, {1, 0}), std::nullopt);
  PreferZoneA policy;
  const RunResult r = run(market, policy);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.migrations, 1);
  EXPECT_DOUBLE_EQ(r.completion_hours, to_hours(155 * kMinute));
  EXPECT_DOUBLE_EQ(r.migration_hours, to_hours(15 * kMinute));
  EXPECT_DOUBLE_EQ(r.startup_hours, to_hours(40 * kMinute));
  EXPECT_DOUBLE_EQ(r.cost_egress, kSizeGb * kEgressPerGb);
  const double tick_hours = to_hours(kTick);
  EXPECT_NEAR(r.cost_spot, 6 * kSpotA * tick_hours + 10 * kSpotB * tick_hours, 1e-12);
  EXPECT_NEAR(r.cost_total, r.cost_spot + r.cost_egress, 1e-12);
  EXPECT_NEAR(r.ledger_startup, (kSpotA + kSpotB) * to_hours(20 * kMinute), 1e-12);
  EXPECT_NEAR(r.ledger_transfer, kSpotB * to_hours(15 * kMinute), 1e-12);
  EXPECT_NEAR(r.ledger_compute, kSpotA * to_hours(40 * kMinute) + kSpotB * to_hours(60 * kMinute), 1e-12);
  EXPECT_NEAR(r.ledger_rounding, kSpotB * to_hours(5 * kMinute), 1e-12);  // the rest of the last tick
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-12);
}

TEST(MigrationTicks, InstanceLostDuringTheTransferLeavesTheStateBehind) {
  // b is lost at 90 min (10 min into the transfer) and back at 100 min: the relaunch starts the whole changeover
  // again, transfer included, and pays the egress again. b then: 20 + 15 min, 60 min of work -> 195 min.
  const SpotMarket market = two_zone_market(availability({0, 60 * kMinute}, {1, 0}),
                                            availability({0, 90 * kMinute, 100 * kMinute}, {1, 0, 1}));
  PreferZoneA policy;
  const RunResult r = run(market, policy);
  EXPECT_EQ(r.preemptions, 2);
  EXPECT_EQ(r.migrations, 1);
  EXPECT_DOUBLE_EQ(r.cost_egress, 2 * kSizeGb * kEgressPerGb);
  EXPECT_DOUBLE_EQ(r.migration_hours, to_hours(25 * kMinute));  // 10 min cut short, then 15
  EXPECT_DOUBLE_EQ(r.completion_hours, to_hours(195 * kMinute));
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-12);
}

TEST(MigrationTicks, SameRegionNeedsNoTransfer) {
  const SpotMarket market = two_zone_market(availability({0, 60 * kMinute}, {1, 0}), std::nullopt, "r-a");
  PreferZoneA policy;
  const RunResult r = run(market, policy);
  EXPECT_EQ(r.migrations, 0);
  EXPECT_EQ(r.cost_egress, 0.0);
  EXPECT_DOUBLE_EQ(r.completion_hours, to_hours(140 * kMinute));  // 60 + 20 + 60
}

TEST(MigrationTicks, HugeEgressAndAPolicyThatNeverMovesEqualsTheSingleZoneRun) {
  const StepSeries a = availability({0, 30 * kMinute, 50 * kMinute}, {1, 0, 1});
  SpotMarket both = two_zone_market(a, std::nullopt);
  for (EgressPrice& price : both.migration.egress) price.usd_per_gb = 1e12;
  SpotMarket alone = both;
  alone.zones.pop_back();
  ZoneAOnly policy;
  const RunResult moved = run(both, policy);
  const RunResult single = run(alone, policy);
  EXPECT_EQ(moved.fingerprint, single.fingerprint);
  EXPECT_EQ(moved.cost_total, single.cost_total);
  EXPECT_EQ(moved.completion_hours, single.completion_hours);
  EXPECT_EQ(moved.cost_egress, 0.0);
  EXPECT_GT(moved.on_demand_hours, 0.0);
}

}  // namespace
}  // namespace spotsim

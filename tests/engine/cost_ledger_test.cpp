// The cost ledger (RunResult::ledger_*, docs/outputs.md#cost-ledger): its entries sum to cost_total on every
// run, whatever the policy, billing rule or price series, and each entry agrees with the time it prices.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/job_simulation.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

double ledger_sum(const RunResult& r) {
  return r.ledger_compute + r.ledger_lost_work + r.ledger_startup + r.ledger_restore + r.ledger_checkpoint +
         r.ledger_transfer + r.cost_egress + r.ledger_idle + r.ledger_rounding;
}

std::vector<RunResult> runs(const SpotMarket& market, const JobSpec& job, const std::string& selection,
                            const std::string& checkpoint, std::uint64_t count = 200) {
  const Scenario scenario(market, job);
  return run_replications(scenario, testing::policies(selection, checkpoint), {7, 0, count, 1});
}

JobSpec some_job(int nodes = 1) {
  JobSpec j = testing::job(30.0, 2 * kMillisPerMinute, 3 * kMillisPerMinute, 5 * kMillisPerMinute);
  j.nodes = nodes;
  j.deadline = 45 * kMillisPerHour;
  return j;
}

void expect_sums(const std::vector<RunResult>& results, const std::string& what) {
  for (const RunResult& r : results) {
    ASSERT_NEAR(ledger_sum(r), r.cost_total, 1e-9 * std::max(1.0, r.cost_total))
        << what << " replication " << r.replication;
    ASSERT_GE(r.ledger_compute, 0.0);
    ASSERT_GE(r.ledger_lost_work, 0.0);
    ASSERT_GE(r.ledger_rounding, -1e-9);
  }
}

TEST(CostLedger, SumsToTheTotalForEveryPolicy) {
  SpotMarket market = testing::single_zone_market(ExponentialLifetime{4.0}, 1.0, 3.0, 2 * kMillisPerMinute);
  for (const char* selection : {"spot-only", "on-demand", "adaptive", "uniform-progress", "greedy"}) {
    for (const char* checkpoint : {"young-daly", "young-daly:on_notice=true", "continuous", "none"}) {
      expect_sums(runs(market, some_job(), selection, checkpoint), std::string(selection) + "/" + checkpoint);
    }
  }
}

TEST(CostLedger, LostWorkIsPricedAtTheSpotPrice) {
  // One zone, constant price, per-millisecond billing: every entry is the price times the hours it reports.
  const double price = 1.5;
  const auto results =
      runs(testing::single_zone_market(ExponentialLifetime{3.0}, price), some_job(2), "spot-only", "young-daly");
  double lost = 0.0;
  for (const RunResult& r : results) {
    ASSERT_NEAR(r.ledger_lost_work, 2 * price * r.lost_work_hours, 1e-9) << r.replication;
    ASSERT_NEAR(r.ledger_startup, 2 * price * r.startup_hours, 1e-9) << r.replication;
    ASSERT_NEAR(r.ledger_restore, 2 * price * r.restore_hours, 1e-9) << r.replication;
    ASSERT_NEAR(r.ledger_checkpoint, 2 * price * r.checkpoint_hours, 1e-9) << r.replication;
    if (r.completed) {
      ASSERT_NEAR(r.ledger_compute, 2 * price * 30.0, 1e-9) << r.replication;  // exactly the job's work
    }
    ASSERT_NEAR(r.ledger_rounding, 0.0, 1e-9);
    lost += r.ledger_lost_work;
  }
  EXPECT_GT(lost, 0.0);
}

TEST(CostLedger, DrainingAfterAnEmergencyCheckpointIsHeldButIdle) {
  // A 10 min notice and an on-notice checkpoint: the instance is held, doing nothing, until the preemption.
  const auto results = runs(testing::single_zone_market(ExponentialLifetime{3.0}, 1.0, 3.0, 10 * kMillisPerMinute),
                            some_job(), "spot-only", "young-daly:on_notice=true");
  double idle = 0.0;
  for (const RunResult& r : results) idle += r.ledger_idle;
  EXPECT_GT(idle, 0.0);
  expect_sums(results, "on notice");
}

TEST(CostLedger, BillingMinimumAndIncrementAreRounding) {
  SpotMarket market = testing::single_zone_market(ExponentialLifetime{0.5});
  market.billing = Billing{10 * kMillisPerMinute, kMillisPerMinute};
  const auto results = runs(market, some_job(), "spot-only", "young-daly");
  double rounding = 0.0;
  for (const RunResult& r : results) rounding += r.ledger_rounding;
  EXPECT_GT(rounding, 0.0);
  expect_sums(results, "billing minimum");
}

TEST(CostLedger, TimeVaryingSpotPricesAreIntegratedPerPhase) {
  SpotMarket market = testing::single_zone_market(ExponentialLifetime{2.0});
  market.zones[0].spot.price_per_hour =
      StepSeries({0, kMillisPerHour, 2 * kMillisPerHour + 17}, {1.0, 0.25, 2.5}, 3 * kMillisPerHour + 1234);
  market.billing = Billing{kMillisPerMinute, kMillisPerSecond};
  expect_sums(runs(market, some_job(3), "spot-only", "young-daly"), "varying price");
  expect_sums(runs(market, some_job(3), "adaptive", "continuous"), "varying price, lossless");
}

}  // namespace
}  // namespace spotsim

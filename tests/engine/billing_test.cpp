#include "model/billing.hpp"

#include <gtest/gtest.h>

#include "engine/job_simulation.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

TEST(Billing, MinimumAndIncrement) {
  const Billing gcp{kMillisPerMinute, kMillisPerSecond};
  EXPECT_EQ(billed_duration(10 * kMillisPerSecond, gcp), kMillisPerMinute);
  EXPECT_EQ(billed_duration(61 * kMillisPerSecond + 1, gcp), 62 * kMillisPerSecond);
  EXPECT_EQ(billed_duration(0, Billing{0, kMillisPerHour}), 0);
  EXPECT_EQ(billed_duration(1, Billing{0, kMillisPerHour}), kMillisPerHour);  // hourly billing rounds up
}

TEST(Billing, TimeVaryingPriceIsIntegrated) {
  const StepSeries price({0, kMillisPerHour}, {1.0, 3.0}, 2 * kMillisPerHour);
  EXPECT_DOUBLE_EQ(instance_cost(price, 30 * kMillisPerMinute, kMillisPerHour, Billing{0, 1}), 0.5 + 1.5);
}

// The exactness check: on-demand cost = price x (start-up + work + checkpoint writes), no noise.
TEST(Billing, OnDemandCostIsPriceTimesHeldTimeExactly) {
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{5.0}, 1.0, 3.0);
  JobSpec job = testing::job(10.0, 2 * kMillisPerMinute, kMillisPerMinute, 7 * kMillisPerMinute);
  job.nodes = 4;
  const Scenario scenario(market, job);
  {
    const auto runs = run_replications(scenario, testing::policies("on-demand", "young-daly"), {1, 0, 3, 1});
    for (const auto& r : runs) {
      EXPECT_DOUBLE_EQ(r.cost_total, 4 * 3.0 * (10.0 + 7.0 / 60.0));
      EXPECT_DOUBLE_EQ(r.completion_hours, 10.0 + 7.0 / 60.0);
      EXPECT_EQ(r.checkpoints, 0);  // never preempted: Young/Daly asks for none
    }
  }
  {
    // A checkpoint every 3 h of a 10 h job: 3 writes of 2 min, all billed.
    const auto runs = run_replications(scenario, testing::policies("on-demand", "fixed:interval=3h"), {1, 0, 1, 1});
    EXPECT_EQ(runs[0].checkpoints, 3);
    EXPECT_DOUBLE_EQ(runs[0].cost_total, 4 * 3.0 * (10.0 + 7.0 / 60.0 + 6.0 / 60.0));
    EXPECT_DOUBLE_EQ(runs[0].checkpoint_hours, 0.1);
  }
}

}  // namespace
}  // namespace spotsim

// Multi-node jobs: any node's preemption interrupts all, and nodes of one zone may be reclaimed together.
#include <gtest/gtest.h>

#include "engine/replication_runner.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

double mean_preemptions(int nodes, double correlation) {
  SpotMarket market = testing::single_zone_market(ExponentialLifetime{40.0});
  market.zones[0].spot.node_correlation = correlation;
  JobSpec job = testing::job(100.0, 0, 0, 0);
  job.nodes = nodes;
  const auto runs =
      run_replications(Scenario(market, job), testing::policies("spot-only", "continuous"), {3, 0, 4000, 0});
  double total = 0;
  for (const auto& r : runs) total += r.preemptions;
  return total / static_cast<double>(runs.size());
}

TEST(MultiNode, IndependentNodesMultiplyThePreemptionRate) {
  // 8 exponential nodes of mean 40 h: the job is preempted at rate 8/40 per hour, 20 times in 100 h
  // (Poisson, so the mean over 4000 runs has sd 0.07).
  EXPECT_NEAR(mean_preemptions(8, 0.0), 20.0, 0.3);
}

TEST(MultiNode, FullyCorrelatedNodesAreReclaimedTogether) {
  // All nodes share one lifetime: the job sees the single-node rate, 2.5 in 100 h.
  EXPECT_NEAR(mean_preemptions(8, 1.0), 2.5, 0.1);
  // Half the launches correlated: rate 0.5 x 1/40 + 0.5 x 8/40 per launch-hour... between the two extremes.
  const double half = mean_preemptions(8, 0.5);
  EXPECT_GT(half, 3.0);
  EXPECT_LT(half, 19.0);
}

TEST(MultiNode, AvailabilityDropsPreemptAllNodesAndRestartsWaitForAll) {
  // 4 nodes; the zone offers 4 instances for 10 h, then 3 for 2 h, then 4 again (a 30 h recording).
  SpotMarket market = testing::single_zone_market(std::nullopt, 1.0, 4.0);
  market.span = 30 * kMillisPerHour;
  market.zones[0].spot.available = StepSeries({0, 10 * kMillisPerHour, 12 * kMillisPerHour}, {4, 3, 4}, market.span);
  JobSpec job = testing::job(15.0, 0, 0, 0);
  job.nodes = 4;
  const auto r = run_replications(Scenario(market, job, TraceStart{false, 0}),
                                  testing::policies("spot-only", "continuous"), {1, 0, 1, 1})
                     .front();
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_NEAR(r.wait_hours, 2.0, 1e-9);
  EXPECT_NEAR(r.completion_hours, 17.0, 1e-9);
  EXPECT_NEAR(r.cost_total, 4 * 15.0, 1e-9);
}

}  // namespace
}  // namespace spotsim

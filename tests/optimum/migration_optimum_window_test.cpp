// Regret with migration costs (optimum/window_optimum.hpp): a scenario whose job moves a checkpoint between regions
// gets the optimum of optimum/migration_optimum.hpp, with the scenario's transfer times and egress per region pair.
#include <gtest/gtest.h>

#include <vector>

#include "model/scenario.hpp"
#include "optimum/migration_optimum.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/window_optimum.hpp"
#include "tests/support/market_builder.hpp"

namespace spotsim {
namespace {

constexpr Millis kTick = 600 * kMillisPerSecond;

// Two zones in two regions of one continent: spot alternates between them every three ticks, so that following it
// means moving.
SpotMarket two_region_market() {
  const int length = 60;
  const auto alternating = [&](int z) {
    std::vector<Millis> times;
    std::vector<double> counts;
    for (int k = 0; k < length; ++k) {
      times.push_back(k * kTick);
      counts.push_back((k / 3) % 2 == z ? 1.0 : 0.0);
    }
    return StepSeries(times, counts, length * kTick);
  };
  return testing::MarketBuilder("two-regions")
      .exact_billing()
      .tick(kTick)
      .zone("east-a", "east", "us")
      .on_demand(3.0)
      .spot_price(1.0)
      .available(alternating(0))
      .zone("west-a", "west", "us")
      .on_demand(3.0)
      .spot_price(1.0)
      .available(alternating(1))
      .egress("east", "west", 0.02)
      .egress("west", "east", 0.02)
      .build();
}

JobSpec job_with_checkpoint(double gigabytes) {
  JobSpec job;
  job.work = 4 * kMillisPerHour;
  job.startup = 180 * kMillisPerSecond;
  job.deadline = 6 * kMillisPerHour;
  job.checkpoint_size_gb = gigabytes;
  return job;
}

TEST(MigrationWindowOptimum, RegretUsesTheMigrationOptimumWhenMovingCosts) {
  const SpotMarket market = two_region_market();
  const Scenario moving(market, job_with_checkpoint(50.0));
  ASSERT_TRUE(moving.has_migration_costs());
  const MigrationOptimumRequest request = migration_window_request(moving, 0);
  ASSERT_EQ(request.zone_region, (std::vector<int>{0, 1}));
  EXPECT_EQ(request.transfer[1], moving.migration(0, 1).transfer);
  EXPECT_EQ(request.transfer[0], 0);
  EXPECT_DOUBLE_EQ(request.egress_usd[2], 50.0 * 0.02);

  OfflineOptimumSolver solver;
  const double with_moves = window_optimum_cost(moving, 0, solver);
  EXPECT_DOUBLE_EQ(with_moves, solve_migration_optimum(request).cost);
  // Moving costs: dearer than the free-moving optimum of the same window, which is what a job with nothing to
  // move gets.
  const Scenario free(market, job_with_checkpoint(0.0));
  ASSERT_FALSE(free.has_migration_costs());
  const double without = window_optimum_cost(free, 0, solver);
  EXPECT_DOUBLE_EQ(without, solver.solve(window_optimum_request(free, 0)).cost);
  EXPECT_GT(with_moves, without);
}

// What outputs report (window_optimum_grid, without solving) is what the solvers used: the grid and whether the
// optimum is exact on it, for a move whose transfer time the grid does not divide (a bound), one it divides (exact)
// and a job with nothing to move (the single-region optimum, exact on gcd(tick, start-up, work, deadline)).
TEST(MigrationWindowOptimum, TheReportedGridIsTheOneSolved) {
  const SpotMarket market = two_region_market();
  for (const double gigabytes : {50.0, 0.0}) {
    const Scenario scenario(market, job_with_checkpoint(gigabytes));
    const WindowOptimumGrid reported = window_optimum_grid(scenario);
    if (scenario.has_migration_costs()) {
      const MigrationOptimum solved = solve_migration_optimum(migration_window_request(scenario, 0));
      EXPECT_EQ(reported.grid, solved.grid) << gigabytes;
      EXPECT_EQ(reported.exact, solved.exact) << gigabytes;
      EXPECT_FALSE(reported.exact) << "50 GB at 8.20 Gbit/s is not a whole number of grid steps";
    } else {
      EXPECT_TRUE(reported.exact);
      EXPECT_EQ(reported.grid, 60 * kMillisPerSecond);  // gcd(600 s, 180 s, 4 h, 6 h)
    }
  }
  // A transfer the automatic grid divides: exact.
  MigrationOptimumRequest request = migration_window_request(Scenario(market, job_with_checkpoint(50.0)), 0);
  request.transfer = {0, 120 * kMillisPerSecond, 120 * kMillisPerSecond, 0};
  const MigrationOptimumGrid grid = migration_optimum_grid(request);
  EXPECT_TRUE(grid.exact);
  EXPECT_EQ(grid.exact, solve_migration_optimum(request).exact);
}

}  // namespace
}  // namespace spotsim

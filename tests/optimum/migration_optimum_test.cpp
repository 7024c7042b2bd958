// The offline optimum across regions (optimum/migration_optimum.hpp) against an exhaustive search over per-tick
// decisions with the data region tracked literally (tests/optimum/migration_reference.hpp), against the single-region
// solver (optimum/offline_optimum.hpp) when moving is free or prohibitive, and its schedules replayed to their cost.
#include "optimum/migration_optimum.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "optimum/offline_optimum.hpp"
#include "tests/optimum/migration_reference.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

constexpr Millis kSecond = kMillisPerSecond;

std::int64_t draw(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

// Zones whose availability (0..2 instances) and spot price change at every tick of a `length`-tick recording.
SpotMarket random_market(std::mt19937_64& rng, int zones, Millis tick, int length) {
  SpotMarket market;
  market.name = "test";
  market.billing = Billing{0, 1};
  for (int z = 0; z < zones; ++z) {
    std::vector<Millis> times;
    std::vector<double> counts, prices;
    for (int k = 0; k < length; ++k) {
      times.push_back(k * tick);
      counts.push_back(static_cast<double>(draw(rng, 0, 2)));
      prices.push_back(static_cast<double>(draw(rng, 30, 150)) / 100.0);
    }
    Zone zone;
    zone.name = "z" + std::to_string(z);
    zone.on_demand_price_per_hour = static_cast<double>(draw(rng, 200, 400)) / 100.0;
    zone.spot.available = StepSeries(times, counts, length * tick);
    zone.spot.price_per_hour = StepSeries(times, prices, length * tick);
    market.zones.push_back(std::move(zone));
  }
  return market;
}

// Two regions: zone 0 in region 0, the last zone in region 1, the others drawn.
void random_regions(std::mt19937_64& rng, MigrationOptimumRequest& request, Millis step) {
  const int zones = static_cast<int>(request.market->zones.size());
  request.zone_region.assign(static_cast<std::size_t>(zones), 0);
  for (int z = 1; z < zones; ++z)
    request.zone_region[static_cast<std::size_t>(z)] = z + 1 == zones ? 1 : static_cast<int>(draw(rng, 0, 1));
  const Millis transfers[] = {0, step, 3 * step, request.tick, request.tick + 4 * step};
  const double egresses[] = {0.0, 0.01, 0.06};
  request.transfer = {0, transfers[draw(rng, 0, 4)], transfers[draw(rng, 0, 4)], 0};
  request.egress_usd = {0.0, egresses[draw(rng, 0, 2)], egresses[draw(rng, 0, 2)], 0.0};
}

MigrationOptimumRequest random_request(std::mt19937_64& rng, int zones, int max_ticks, SpotMarket& market) {
  const Millis tick = draw(rng, 0, 1) == 0 ? 600 * kSecond : 300 * kSecond;
  const Millis step = tick / 5;
  const Millis changeovers[] = {0, step, tick, tick + step};
  const int ticks = static_cast<int>(draw(rng, 2, max_ticks));
  market = random_market(rng, zones, tick, ticks + 1);
  MigrationOptimumRequest request;
  request.market = &market;
  request.start = draw(rng, 0, 2) * tick;
  request.tick = tick;
  request.changeover = changeovers[draw(rng, 0, 3)];
  request.deadline = draw(rng, 4 * ticks, 5 * ticks) * step;
  request.work = draw(rng, 1, std::max<Millis>(1, (request.deadline - request.changeover) / step)) * step;
  request.per_tick_billing = draw(rng, 0, 1) == 1;
  request.nodes = static_cast<int>(draw(rng, 1, 2));
  request.want_schedule = true;
  random_regions(rng, request, step);
  return request;
}

void expect_replays(const MigrationOptimumRequest& request, const MigrationOptimum& result, const std::string& label) {
  ASSERT_EQ(result.schedule.size(), result.schedule_zones.size()) << label;
  ASSERT_EQ(result.schedule.size(), result.schedule_held.size()) << label;
  const testing::MigrationReplay replay = testing::replay_with_migration(request, result);
  ASSERT_TRUE(replay.valid) << label << " " << result.schedule;
  const double tolerance = 1e-9 * std::max(1.0, result.cost);
  EXPECT_NEAR(replay.cost, result.cost, tolerance) << label << " " << result.schedule;
  EXPECT_NEAR(replay.spot_cost, result.spot_cost, tolerance) << label;
  EXPECT_NEAR(replay.on_demand_cost, result.on_demand_cost, tolerance) << label;
  EXPECT_NEAR(replay.egress, result.egress_cost, tolerance) << label;
  EXPECT_EQ(replay.migrations, result.migrations) << label;
  EXPECT_EQ(replay.finish, result.finish) << label;
}

TEST(MigrationOptimum, EqualsExhaustiveSearchOverPerTickDecisions) {
  std::mt19937_64 rng(15);
  MigrationOptimumSolver solver;
  int feasible = 0, moved = 0, paid_egress = 0, partial = 0;
  for (int c = 0; c < 600; ++c) {
    SpotMarket market;
    const MigrationOptimumRequest request = random_request(rng, c % 2 == 0 ? 2 : 3, 6, market);
    const std::string label = "case " + std::to_string(c);
    const double expected = testing::migration_brute_force(request, request.tick / 5);
    const MigrationOptimum result = solver.solve(request);
    ASSERT_EQ(result.feasible, std::isfinite(expected)) << label;
    if (!result.feasible) continue;
    ++feasible;
    EXPECT_TRUE(result.exact) << label;
    ASSERT_NEAR(result.cost, expected, 1e-9 * std::max(1.0, expected)) << label;
    expect_replays(request, result, label);
    moved += result.migrations > 0 ? 1 : 0;
    paid_egress += result.egress_cost > 0.0 ? 1 : 0;
    for (std::size_t k = 0; k + 1 < result.schedule.size(); ++k) {
      partial += result.schedule[k] != '.' && result.schedule_held[k] < request.tick ? 1 : 0;
    }
    // Without the schedule: the same cost (the finish may differ between equally cheap schedules).
    MigrationOptimumRequest quiet = request;
    quiet.want_schedule = false;
    const MigrationOptimum fresh = solve_migration_optimum(quiet);
    EXPECT_NEAR(fresh.cost, result.cost, 1e-9 * std::max(1.0, result.cost)) << label;
  }
  // The cases exercise moves (with and without egress) and partial stops.
  EXPECT_GT(feasible, 300);
  EXPECT_GT(moved, 30);
  EXPECT_GT(paid_egress, 15);
  EXPECT_GT(partial, 10);
}

// Decisions on a finer step than the grid find nothing cheaper (the grid includes every transfer time).
TEST(MigrationOptimum, PartialStopsOnTheGridLoseNothing) {
  std::mt19937_64 rng(7);
  for (int c = 0; c < 40; ++c) {
    SpotMarket market;
    MigrationOptimumRequest request = random_request(rng, 2, 3, market);
    request.per_tick_billing = false;
    const double fine = testing::migration_brute_force(request, request.tick / 10);
    const MigrationOptimum result = solve_migration_optimum(request);
    if (!result.feasible) continue;
    EXPECT_NEAR(result.cost, fine, 1e-9 * std::max(1.0, fine)) << "case " << c;
  }
}

SpotMarket recorded(const std::vector<std::string>& names) {
  SpotMarket market;
  for (const std::string& name : names) {
    const SpotMarket one = read_trace_file(std::string(SPOTSIM_REPO_DIR) + "/experiments/traces/cbl/" + name + ".json");
    if (market.zones.empty())
      market = one;
    else
      market.zones.push_back(one.zones.front());
  }
  return market;
}

MigrationOptimumRequest request_on(const SpotMarket& market, Millis work, Millis deadline, bool per_tick) {
  MigrationOptimumRequest request;
  request.market = &market;
  request.tick = market.tick;
  request.changeover = 720 * kSecond;
  request.work = work;
  request.deadline = deadline;
  request.per_tick_billing = per_tick;
  return request;
}

OfflineOptimumRequest single_region(const MigrationOptimumRequest& request, const SpotMarket* market) {
  OfflineOptimumRequest plain;
  plain.market = market;
  plain.start = request.start;
  plain.tick = request.tick;
  plain.work = request.work;
  plain.changeover = request.changeover;
  plain.deadline = request.deadline;
  plain.nodes = request.nodes;
  plain.per_tick_billing = request.per_tick_billing;
  return plain;
}

// Free moves: the optimum of optimum/offline_optimum.hpp, on recorded windows of one zone and of three zones in three
// regions (free transfers, no egress).
TEST(MigrationOptimum, EqualsTheSingleRegionOptimumWhenMovingIsFree) {
  const SpotMarket one = recorded({"cbl-aws-10-26-2022-us-west-2a_v100_1"});
  const SpotMarket three = recorded({"cbl-aws-02-15-2023-us-east-1a_v100_1", "cbl-aws-02-15-2023-us-east-2a_v100_1",
                                     "cbl-aws-02-15-2023-us-west-2a_v100_1"});
  MigrationOptimumSolver solver;
  OfflineOptimumSolver plain_solver;
  for (const SpotMarket* market : {&one, &three}) {
    for (const Millis start_tick : {0, 211, 1500}) {
      for (const bool per_tick : {false, true}) {
        MigrationOptimumRequest request = request_on(*market, 16 * kMillisPerHour, 22 * kMillisPerHour, per_tick);
        request.start = start_tick * market->tick;
        if (market == &three) {
          request.zone_region = {0, 1, 2};
          request.transfer.assign(9, 0);
          request.egress_usd.assign(9, 0.0);
        }
        const OfflineOptimum expected = plain_solver.solve(single_region(request, market));
        const MigrationOptimum result = solver.solve(request);
        ASSERT_TRUE(result.feasible);
        EXPECT_TRUE(result.exact);
        EXPECT_NEAR(result.cost, expected.cost, 1e-9 * expected.cost)
            << market->zones.size() << " zones, tick " << start_tick;
        EXPECT_EQ(result.finish, expected.finish);
      }
    }
  }
}

// Prohibitive egress: never moves once something is saved, so the best of the regions alone.
TEST(MigrationOptimum, NeverMovesWhenEgressIsProhibitive) {
  const std::vector<std::string> names{"cbl-aws-02-15-2023-us-east-1a_v100_1", "cbl-aws-02-15-2023-us-east-1c_v100_1",
                                       "cbl-aws-02-15-2023-us-east-2a_v100_1", "cbl-aws-02-15-2023-us-west-2a_v100_1"};
  const SpotMarket market = recorded(names);
  const std::vector<int> regions{0, 0, 1, 2};
  MigrationOptimumSolver solver;
  OfflineOptimumSolver plain_solver;
  for (const Millis start_tick : {0, 700, 3000}) {
    for (const bool per_tick : {false, true}) {
      MigrationOptimumRequest request = request_on(market, 10 * kMillisPerHour, 14 * kMillisPerHour, per_tick);
      request.start = start_tick * market.tick;
      request.zone_region = regions;
      request.transfer.assign(9, 0);
      request.egress_usd.assign(9, 1e9);
      for (int a = 0; a < 3; ++a) request.egress_usd[static_cast<std::size_t>(a * 4)] = 0.0;
      request.want_schedule = true;
      double best = std::numeric_limits<double>::infinity();
      for (int region = 0; region < 3; ++region) {
        SpotMarket alone = market;
        alone.zones.clear();
        for (std::size_t z = 0; z < market.zones.size(); ++z) {
          if (regions[z] == region) alone.zones.push_back(market.zones[z]);
        }
        best = std::min(best, plain_solver.solve(single_region(request, &alone)).cost);
      }
      const MigrationOptimum result = solver.solve(request);
      EXPECT_NEAR(result.cost, best, 1e-9 * best) << "tick " << start_tick;
      EXPECT_EQ(result.migrations, 0);
      expect_replays(request, result, "tick " + std::to_string(start_tick));
    }
  }
}

// Recorded 9-zone, 3-region windows: the optimum with costly moves lies between free moves and no moves, its
// schedules replay, and in some windows a costly move pays.
TEST(MigrationOptimum, RecordedNineZonesBetweenFreeAndForbiddenMoves) {
  std::vector<std::string> names;
  for (const char* zone : {"us-east-1a", "us-east-1c", "us-east-1d", "us-east-1f", "us-east-2a", "us-east-2b",
                           "us-west-2a", "us-west-2b", "us-west-2c"}) {
    names.push_back(std::string("cbl-aws-02-15-2023-") + zone + "_v100_1");
  }
  const SpotMarket market = recorded(names);
  MigrationOptimumRequest request = request_on(market, 6 * kMillisPerHour, 8 * kMillisPerHour, false);
  request.changeover = 195 * kSecond;
  request.zone_region = {0, 0, 0, 0, 1, 1, 2, 2, 2};
  request.want_schedule = true;
  MigrationOptimumSolver solver;
  auto with = [&](Millis transfer, double egress) {
    request.transfer.assign(9, transfer);
    request.egress_usd.assign(9, egress);
    for (int a = 0; a < 3; ++a) {
      request.transfer[static_cast<std::size_t>(a * 4)] = 0;
      request.egress_usd[static_cast<std::size_t>(a * 4)] = 0.0;
    }
    const MigrationOptimum result = solver.solve(request);
    expect_replays(request, result, "transfer " + std::to_string(transfer));
    return result;
  };
  int windows_that_move = 0;
  for (Millis start_tick = 0; start_tick < 20000; start_tick += 2000) {
    request.start = start_tick * market.tick;
    const MigrationOptimum free = with(0, 0.0), costly = with(390 * kSecond, 0.5), forbidden = with(0, 1e9);
    EXPECT_TRUE(costly.exact);
    EXPECT_LE(free.cost, costly.cost + 1e-9);
    EXPECT_LE(costly.cost, forbidden.cost + 1e-9);
    EXPECT_EQ(forbidden.migrations, 0);
    windows_that_move += costly.migrations > 0 && costly.cost < forbidden.cost - 1e-9 ? 1 : 0;
  }
  EXPECT_GT(windows_that_move, 0) << "no recorded window where a costly move pays";
}

// A grid coarser than the transfers rounds them down: a lower bound, flagged, no dearer than the exact optimum.
TEST(MigrationOptimum, CoarseGridIsAFlaggedLowerBound) {
  std::mt19937_64 rng(99);
  int below = 0;
  for (int c = 0; c < 60; ++c) {
    SpotMarket market;
    MigrationOptimumRequest request = random_request(rng, 3, 5, market);
    request.transfer[1] = request.transfer[2] = request.tick / 5 * 2 - kSecond;
    request.want_schedule = false;
    const MigrationOptimum exact = solve_migration_optimum(request);
    if (!exact.feasible) continue;
    EXPECT_TRUE(exact.exact);
    EXPECT_EQ(exact.grid, kSecond);
    request.grid = request.tick / 5;
    const MigrationOptimum bound = solve_migration_optimum(request);
    EXPECT_FALSE(bound.exact);
    EXPECT_EQ(bound.grid, request.tick / 5);
    EXPECT_LE(bound.cost, exact.cost + 1e-9 * exact.cost) << "case " << c;
    below += bound.cost < exact.cost - 1e-9 * exact.cost ? 1 : 0;
  }
  EXPECT_GT(below, 0);
}

// The automatic grid: exact when the transfers share a coarse enough gcd with the rest, else the finest divisor of
// gcd(tick, changeover, work, deadline) within kGridBudgetPerRow, flagged as a bound.
TEST(MigrationOptimum, AutomaticGridIsExactOrAFlaggedBound) {
  SpotMarket market;
  market.billing = Billing{0, 1};
  for (int z = 0; z < 2; ++z) {
    Zone zone;
    zone.on_demand_price_per_hour = 3.0;
    zone.spot.price_per_hour = StepSeries::constant(1.0);
    market.zones.push_back(zone);
  }
  MigrationOptimumRequest request;
  request.market = &market;
  request.tick = 600 * kSecond;
  request.changeover = 180 * kSecond;
  request.work = 40 * kMillisPerHour;
  request.deadline = 50 * kMillisPerHour;
  request.zone_region = {0, 1};
  request.egress_usd = {0.0, 1.0, 1.0, 0.0};
  request.transfer = {0, 120 * kSecond, 120 * kSecond, 0};
  MigrationOptimum result = solve_migration_optimum(request);
  EXPECT_TRUE(result.exact);
  EXPECT_EQ(result.grid, 60 * kSecond);
  request.transfer = {0, 48781, 48781, 0};  // 50 GB at 8.20 Gbit/s, in ms
  result = solve_migration_optimum(request);
  EXPECT_FALSE(result.exact);
  // 300 ticks: the finest divisor of 60 s within the budget of one row.
  auto cost = [&](Millis step) {
    return request.work / step > kGridMaxSteps ? kGridBudgetPerRow + 1 : 300 * (request.work / step);
  };
  EXPECT_EQ(60 * kSecond % result.grid, 0);
  EXPECT_LE(cost(result.grid), kGridBudgetPerRow);
  for (Millis finer = 1; finer < result.grid; ++finer) {
    if (60 * kSecond % finer == 0) {
      EXPECT_GT(cost(finer), kGridBudgetPerRow) << finer;
    }
  }
  // Said without solving, as outputs report it.
  const MigrationOptimumGrid said = migration_optimum_grid(request);
  EXPECT_EQ(said.grid, result.grid);
  EXPECT_FALSE(said.exact);
  // Spot everywhere, always: no move needed, so the bound is the plain cost (start-up + work at the spot price).
  EXPECT_NEAR(result.cost, (180.0 / 3600.0 + 40.0) * 1.0, 1e-9);
}

// More zones never coarsen the grid (the budget grows with the DP's rows), so a solve's time grows with zones and
// its bound never loosens. Before, a fixed budget gave 9 zones a coarser grid than 3, and a faster solve.
TEST(MigrationOptimum, GridDoesNotDependOnTheNumberOfZones) {
  std::vector<Millis> grids;
  for (int zones_per_region : {1, 3, 6}) {
    SpotMarket market;
    market.billing = Billing{0, 1};
    MigrationOptimumRequest request;
    for (int region = 0; region < 3; ++region) {
      for (int z = 0; z < zones_per_region; ++z) {
        Zone zone;
        zone.on_demand_price_per_hour = 3.0;
        zone.spot.price_per_hour = StepSeries::constant(1.0 + 0.1 * z);
        market.zones.push_back(zone);
        request.zone_region.push_back(region);
      }
    }
    request.market = &market;
    request.tick = 600 * kSecond;
    request.changeover = 180 * kSecond;
    request.work = 40 * kMillisPerHour;
    request.deadline = 48 * kMillisPerHour;
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        request.transfer.push_back(a == b ? 0 : 48781);
        request.egress_usd.push_back(a == b ? 0.0 : 1.0);
      }
    }
    const MigrationOptimumGrid grid = migration_optimum_grid(request);
    EXPECT_FALSE(grid.exact);
    grids.push_back(grid.grid);
  }
  EXPECT_EQ(grids[0], grids[1]);
  EXPECT_EQ(grids[0], grids[2]);
}

TEST(MigrationOptimum, RejectsNonsense) {
  SpotMarket market;
  market.zones.resize(2);
  MigrationOptimumRequest request;
  request.market = &market;
  request.tick = 600 * kSecond;
  request.work = 3600 * kSecond;
  request.deadline = 7200 * kSecond;
  request.zone_region = {0};
  EXPECT_THROW(solve_migration_optimum(request), InputError);
  request.zone_region = {0, 1};
  request.transfer = {0, 1};
  request.egress_usd = {0.0, 0.0, 0.0, 0.0};
  EXPECT_THROW(solve_migration_optimum(request), InputError);
  request.transfer = {0, 0, 0, 0};
  request.grid = 7 * kSecond;
  EXPECT_THROW(solve_migration_optimum(request), InputError);
  request.grid = 0;
  request.egress_usd[1] = -1.0;
  EXPECT_THROW(solve_migration_optimum(request), InputError);
}

}  // namespace
}  // namespace spotsim

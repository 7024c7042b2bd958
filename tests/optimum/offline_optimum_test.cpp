// The offline optimum (optimum/offline_optimum.hpp) against an exhaustive search over every per-tick decision sequence
// (with per-second billing, partial stops on the decision grid included), the same model with equal states merged
// for longer requests and recorded windows, decisions at every grid step (an event-driven policy) with constant
// prices, closed forms for the degenerate markets, the counterexample that needs partial stops, and the Can't Be
// Late trace it is meant for.
#include "optimum/offline_optimum.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "tests/optimum/tick_model_reference.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

using testing::brute_force_optimum;
using testing::replay_schedule;

constexpr Millis kSecond = kMillisPerSecond;

// Deterministic small draws from the raw engine (std::*_distribution differs between standard libraries).
std::int64_t draw(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

Zone constant_zone(double spot_price, double on_demand_price, std::optional<StepSeries> available) {
  Zone zone;
  zone.name = "z";
  zone.on_demand_price_per_hour = on_demand_price;
  zone.spot.price_per_hour = StepSeries::constant(spot_price);
  zone.spot.available = std::move(available);
  return zone;
}

SpotMarket market_of(std::vector<Zone> zones) {
  SpotMarket market;
  market.name = "test";
  market.billing = Billing{0, 1};
  market.zones = std::move(zones);
  return market;
}

// A random market whose availability (0..2 instances) and spot price change only at multiples of `tick`, and
// whose recording (`length` ticks) may be shorter than the job's deadline, so that it wraps around.
SpotMarket random_market(std::mt19937_64& rng, int zones, Millis tick, int length) {
  std::vector<Zone> list;
  const double shared_on_demand = static_cast<double>(draw(rng, 200, 400)) / 100.0;
  for (int z = 0; z < zones; ++z) {
    std::vector<Millis> times;
    std::vector<double> counts, prices;
    for (int k = 0; k < length; ++k) {
      times.push_back(k * tick);
      counts.push_back(static_cast<double>(draw(rng, 0, 2)));
      prices.push_back(static_cast<double>(draw(rng, 30, 150)) / 100.0);
    }
    const double on_demand = draw(rng, 0, 2) == 0 ? shared_on_demand : static_cast<double>(draw(rng, 200, 400)) / 100.0;
    Zone zone = constant_zone(0.0, on_demand, StepSeries(times, counts, length * tick));
    zone.spot.price_per_hour = StepSeries(times, prices, length * tick);
    list.push_back(std::move(zone));
  }
  return market_of(std::move(list));
}

void expect_schedule_replays(const OfflineOptimumRequest& request, const OfflineOptimum& result) {
  ASSERT_EQ(result.schedule_zones.size(), result.schedule.size());
  ASSERT_EQ(result.schedule_held.size(), result.schedule.size());
  for (std::size_t k = 0; k + 1 < result.schedule.size(); ++k) {
    const Millis held = result.schedule_held[k];
    if (result.schedule[k] == '.') {
      EXPECT_EQ(held, 0);
    } else if (request.per_tick_billing) {
      EXPECT_EQ(held, request.tick) << "no partial stops with per-tick billing";
    } else {
      EXPECT_TRUE(held > 0 && held <= request.tick) << held;
    }
  }
  EXPECT_EQ(result.finish,
            static_cast<Millis>(result.schedule.size() - 1) * request.tick + result.schedule_held.back());
  const testing::ReplayOutcome replay =
      replay_schedule(request, result.schedule, result.schedule_zones, result.schedule_held);
  ASSERT_TRUE(replay.valid) << result.schedule;
  EXPECT_NEAR(replay.cost, result.cost, 1e-9 * std::max(1.0, result.cost)) << result.schedule;
  EXPECT_NEAR(replay.spot_cost, result.spot_cost, 1e-9 * std::max(1.0, result.cost));
  EXPECT_NEAR(replay.on_demand_cost, result.on_demand_cost, 1e-9 * std::max(1.0, result.cost));
  EXPECT_EQ(replay.finish, result.finish);
  EXPECT_LE(result.finish, request.deadline);
}

OfflineOptimumRequest request_on(const SpotMarket& market, Millis tick, Millis changeover, Millis work,
                                 Millis deadline) {
  OfflineOptimumRequest request;
  request.market = &market;
  request.tick = tick;
  request.changeover = changeover;
  request.work = work;
  request.deadline = deadline;
  request.want_schedule = true;
  return request;
}

// A random request on `market` (filled here) of 1..max_ticks ticks, either billing, with the schedule.
OfflineOptimumRequest random_request(std::mt19937_64& rng, int zones, int max_ticks, SpotMarket& market) {
  const Millis tick = draw(rng, 0, 1) == 0 ? 600 * kSecond : 300 * kSecond;
  const Millis changeovers[] = {0, tick / 2, tick, tick * 6 / 5, 2 * tick};
  const int ticks = static_cast<int>(draw(rng, 1, max_ticks));
  const Millis step = tick / 10;
  market = random_market(rng, zones, tick, static_cast<int>(draw(rng, 1, ticks + 2)));
  OfflineOptimumRequest request;
  request.market = &market;
  request.start = draw(rng, 0, 3) * tick;
  request.tick = tick;
  request.changeover = changeovers[draw(rng, 0, 4)];
  // Mostly deadlines near the end of the last tick and work that fits, so that schedules are long and mixed;
  // one case in eight anywhere, infeasible ones included.
  const bool anywhere = draw(rng, 0, 7) == 0;
  request.deadline = draw(rng, anywhere ? 1 : 5 * ticks, 10 * ticks) * step;
  const Millis room = request.deadline - (anywhere ? 0 : request.changeover);
  request.work = draw(rng, 1, std::max<Millis>(1, room / step)) * step;
  request.nodes = static_cast<int>(draw(rng, 1, 2));
  request.per_tick_billing = draw(rng, 0, 1) == 1;
  request.want_schedule = true;
  return request;
}

// A tick held part-way and then released (not the finishing tick).
bool has_partial_stop(const OfflineOptimumRequest& request, const OfflineOptimum& result) {
  for (std::size_t k = 0; k + 1 < result.schedule.size(); ++k) {
    if (result.schedule[k] != '.' && result.schedule_held[k] < request.tick) return true;
  }
  return false;
}

void check_against_brute_force(int zones, int max_ticks, int cases, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  OfflineOptimumSolver solver;  // reused across cases, as in a sweep
  int feasible = 0, with_spot = 0, mixed = 0, idle = 0, long_plans = 0, partial = 0, partial_pays = 0;
  for (int c = 0; c < cases; ++c) {
    SpotMarket market;
    const OfflineOptimumRequest request = random_request(rng, zones, max_ticks, market);
    const std::string label = "case " + std::to_string(c) + ": work " + std::to_string(request.work) + " d " +
                              std::to_string(request.changeover) + " deadline " + std::to_string(request.deadline) +
                              (request.per_tick_billing ? " per tick" : " per second");

    const double expected = brute_force_optimum(request);
    const OfflineOptimum result = solver.solve(request);
    ASSERT_EQ(result.feasible, std::isfinite(expected)) << label;
    if (!result.feasible) continue;
    ++feasible;
    with_spot += result.spot_cost > 0.0 ? 1 : 0;
    const std::string& plan = result.schedule;
    mixed += plan.find('s') != std::string::npos && plan.find('D') != std::string::npos ? 1 : 0;
    idle += plan.find('.') != std::string::npos ? 1 : 0;
    long_plans += plan.size() >= static_cast<std::size_t>(max_ticks) - 1 ? 1 : 0;
    ASSERT_NEAR(result.cost, expected, 1e-9 * std::max(1.0, expected)) << label;
    expect_schedule_replays(request, result);
    if (has_partial_stop(request, result)) {
      ++partial;
      // ...and then the plain tick model (no partial stops) is dearer, or the stop is a tie.
      const double per_tick_decisions = brute_force_optimum(request, 0, false);
      EXPECT_GE(per_tick_decisions, expected - 1e-9 * std::max(1.0, expected)) << label;
      partial_pays += per_tick_decisions > expected + 1e-9 * std::max(1.0, expected) ? 1 : 0;
    }
    // A fresh solver gives the same answer (nothing leaks between solves through the reused buffers), and so does
    // a solve without the schedule.
    OfflineOptimumRequest quiet = request;
    quiet.want_schedule = false;
    const OfflineOptimum fresh = solve_offline_optimum(quiet);
    EXPECT_EQ(fresh.cost, result.cost) << label;
    EXPECT_EQ(fresh.finish, result.finish) << label;
    EXPECT_TRUE(fresh.schedule.empty());
    EXPECT_TRUE(fresh.schedule_held.empty());
    EXPECT_EQ(fresh.spot_cost + fresh.on_demand_cost, 0.0) << "the split needs the schedule";
  }
  // The random cases exercise the interesting region: spot used, spot and on-demand mixed, waiting, long plans.
  EXPECT_GT(feasible, cases / 2);
  EXPECT_GT(with_spot, cases / 4);
  EXPECT_GT(mixed, cases / 25);
  EXPECT_GT(idle, cases / 10);
  EXPECT_GT(long_plans, 10);
  // ...and partial stops, where they pay (per-second billing: half the cases).
  EXPECT_GT(partial, cases / 40);
  EXPECT_GT(partial_pays, cases / 80);
}

TEST(OfflineOptimum, EqualsExhaustiveSearchOneZone) { check_against_brute_force(1, 9, 1500, 20240601); }

TEST(OfflineOptimum, EqualsExhaustiveSearchTwoZones) { check_against_brute_force(2, 7, 800, 7); }

// Partial stops release on the decision grid q: allowing them on a grid of q / 2 or q / 3 finds nothing cheaper
// (the linear-programme argument in optimum/offline_optimum.hpp).
TEST(OfflineOptimum, PartialStopsOnTheDecisionGridLoseNothing) {
  std::mt19937_64 rng(42);
  int checked = 0;
  for (int c = 0; c < 600; ++c) {
    SpotMarket market;
    OfflineOptimumRequest request = random_request(rng, 1, 5, market);
    request.per_tick_billing = false;
    const Millis q = testing::decision_grid(request);
    const double on_grid = brute_force_optimum(request);
    if (!std::isfinite(on_grid)) continue;
    ++checked;
    const double finer = brute_force_optimum(request, q % 3 == 0 ? q / 3 : q / 2);
    ASSERT_NEAR(finer, on_grid, 1e-9 * std::max(1.0, on_grid)) << "case " << c;
    EXPECT_NEAR(solve_offline_optimum(request).cost, on_grid, 1e-9 * std::max(1.0, on_grid)) << "case " << c;
  }
  EXPECT_GT(checked, 450);
}

// Per-second billing: with constant prices, launching only at tick boundaries and releasing anywhere is as good
// as deciding at every grid step (an event-driven policy), the exchange argument in optimum/offline_optimum.hpp; with
// prices that change per tick the offline optimum is at least the step model's.
TEST(OfflineOptimum, EqualsDecisionsAtEveryStepWithConstantPrices) {
  std::mt19937_64 rng(2024);
  int checked = 0, cheaper_by_steps = 0;
  for (int c = 0; c < 600; ++c) {
    SpotMarket market;
    OfflineOptimumRequest request = random_request(rng, static_cast<int>(draw(rng, 1, 2)), 7, market);
    request.per_tick_billing = false;
    const Millis q = testing::decision_grid(request);
    const double per_step = testing::step_model_optimum(request, c % 4 == 0 ? q / 2 : q);
    const double optimum = solve_offline_optimum(request).cost;
    if (!std::isfinite(per_step)) continue;
    ++checked;
    EXPECT_GE(optimum, per_step - 1e-9 * std::max(1.0, per_step)) << "case " << c;
    cheaper_by_steps += optimum > per_step + 1e-9 * std::max(1.0, per_step) ? 1 : 0;
    for (Zone& zone : market.zones) zone.spot.price_per_hour = StepSeries::constant(zone.spot.price_per_hour.at(0));
    const double constant = testing::step_model_optimum(request, c % 4 == 0 ? q / 2 : q);
    EXPECT_NEAR(solve_offline_optimum(request).cost, constant, 1e-9 * std::max(1.0, constant)) << "case " << c;
  }
  EXPECT_GT(checked, 400);
  EXPECT_GT(cheaper_by_steps, 0) << "varying spot prices: launching inside a tick can pay";
}

// Longer requests than the exhaustive search can take (tens of ticks, bands and pruning at work), against the same
// model with equal states merged: random markets with prices changing per tick, 1-2 zones, both billings.
TEST(OfflineOptimum, EqualsTheTickModelOnLongerRandomRequests) {
  std::mt19937_64 rng(314);
  OfflineOptimumSolver solver;
  int partial = 0;
  for (int c = 0; c < 150; ++c) {
    const int zones = static_cast<int>(draw(rng, 1, 2));
    const Millis tick = draw(rng, 0, 1) == 0 ? 600 * kSecond : 300 * kSecond;
    const int ticks = static_cast<int>(draw(rng, 12, 40));
    const SpotMarket market = random_market(rng, zones, tick, static_cast<int>(draw(rng, ticks / 2, ticks)));
    const Millis changeovers[] = {0, tick / 5, tick / 2, tick * 6 / 5, 2 * tick + tick / 5};
    OfflineOptimumRequest request;
    request.market = &market;
    request.start = draw(rng, 0, 5) * tick;
    request.tick = tick;
    request.changeover = changeovers[draw(rng, 0, 4)];
    const Millis step = tick / 5;
    request.deadline = draw(rng, 4 * ticks, 5 * ticks) * step;
    request.work = draw(rng, request.deadline / step / 3, (request.deadline - request.changeover) / step) * step;
    request.per_tick_billing = draw(rng, 0, 2) == 0;
    request.want_schedule = true;
    const std::string label = "case " + std::to_string(c);
    const double expected = testing::tick_model_by_states(request);
    const OfflineOptimum result = solver.solve(request);
    ASSERT_EQ(result.feasible, std::isfinite(expected)) << label;
    if (!result.feasible) continue;
    ASSERT_NEAR(result.cost, expected, 1e-9 * std::max(1.0, expected)) << label;
    expect_schedule_replays(request, result);
    partial += has_partial_stop(request, result) ? 1 : 0;
    OfflineOptimumRequest quiet = request;
    quiet.want_schedule = false;
    EXPECT_EQ(solver.solve(quiet).cost, result.cost) << label;
  }
  EXPECT_GT(partial, 8);
}

// Windows of the recorded Can't Be Late traces (constant prices, availability per 600 s or 195 s tick), short jobs
// so that the model with merged states stays quick; both billings.
TEST(OfflineOptimum, EqualsTheTickModelOnRecordedWindows) {
  OfflineOptimumSolver solver;
  for (const char* name : {"cbl-aws-10-26-2022-us-west-2a_v100_1", "cbl-aws-02-15-2023-us-east-1f_v100_1"}) {
    const SpotMarket market =
        read_trace_file(std::string(SPOTSIM_REPO_DIR) + "/experiments/traces/cbl/" + name + ".json");
    ASSERT_GT(market.tick, 0);
    for (const Millis start_tick : {0, 211, 1500}) {
      for (const bool per_tick : {false, true}) {
        OfflineOptimumRequest request = request_on(market, market.tick, 720 * kSecond, 3 * kMillisPerHour,
                                                   4 * kMillisPerHour + 30 * kMillisPerMinute);
        request.start = start_tick * market.tick;
        request.per_tick_billing = per_tick;
        const double expected = testing::tick_model_by_states(request);
        const OfflineOptimum result = solver.solve(request);
        ASSERT_TRUE(result.feasible);
        EXPECT_NEAR(result.cost, expected, 1e-9 * std::max(1.0, expected)) << name << " from tick " << start_tick;
        expect_schedule_replays(request, result);
      }
    }
  }
}

TEST(OfflineOptimum, OnDemandWhenSpotIsNeverAvailable) {
  const SpotMarket market = market_of({constant_zone(0.9731, 3.06, StepSeries::constant(0.0))});
  const Millis tick = 600 * kSecond, d = 720 * kSecond, work = 10 * kMillisPerHour + 7 * kMillisPerMinute;
  OfflineOptimumRequest request = request_on(market, tick, d, work, 12 * kMillisPerHour);
  const OfflineOptimum per_second = solve_offline_optimum(request);
  ASSERT_TRUE(per_second.feasible);
  EXPECT_NEAR(per_second.cost, 3.06 * to_hours(d + work), 1e-9);
  EXPECT_EQ(per_second.finish, d + work);
  EXPECT_EQ(per_second.spot_cost, 0.0);
  request.per_tick_billing = true;
  const OfflineOptimum per_tick = solve_offline_optimum(request);
  const Millis ticks = (d + work + tick - 1) / tick;
  EXPECT_NEAR(per_tick.cost, 3.06 * to_hours(ticks * tick), 1e-9);
  expect_schedule_replays(request, per_tick);
}

TEST(OfflineOptimum, SpotPriceForChangeoverAndWorkWhenSpotIsAlwaysAvailable) {
  const SpotMarket market = market_of({constant_zone(0.9731, 3.06, std::nullopt)});
  const Millis d = 720 * kSecond, work = 20 * kMillisPerHour;
  OfflineOptimumRequest request = request_on(market, 600 * kSecond, d, work, 40 * kMillisPerHour);
  request.nodes = 2;
  const OfflineOptimum result = solve_offline_optimum(request);
  ASSERT_TRUE(result.feasible);
  EXPECT_NEAR(result.cost, 2 * 0.9731 * to_hours(d + work), 1e-9);
  EXPECT_EQ(result.on_demand_cost, 0.0);
  EXPECT_EQ(result.finish, d + work);
  expect_schedule_replays(request, result);
}

// Spot must last the whole tick: a drop inside a tick (a recording not on the tick's clock) rules that tick out.
TEST(OfflineOptimum, SpotOnlyInTicksItLastsThrough) {
  const Millis tick = 600 * kSecond;
  const SpotMarket market = market_of({constant_zone(1.0, 3.0, StepSeries({0, 900 * kSecond}, {1.0, 0.0}, kNever))});
  const OfflineOptimum result = solve_offline_optimum(request_on(market, tick, 0, 2 * tick, 4 * tick));
  ASSERT_TRUE(result.feasible);
  EXPECT_EQ(result.schedule, "sD");
  EXPECT_NEAR(result.cost, (1.0 + 3.0) * to_hours(tick), 1e-12);
}

// The header's counterexample to per-tick decisions under per-second billing: d = 0, work 1.3 ticks, deadline 2
// ticks, spot only in tick 1. On-demand for 0.3 tick, nothing, then the spot tick (0.3 od + spot) beats
// on-demand for the first tick and 0.3 tick of spot (od + 0.3 spot), the best with holds changing only at
// boundaries.
TEST(OfflineOptimum, PartialStopBeforeTheSpotTick) {
  const Millis tick = 600 * kSecond;
  const SpotMarket market =
      market_of({constant_zone(1.0, 3.0, StepSeries({0, tick, 2 * tick}, {0.0, 1.0, 0.0}, kNever))});
  OfflineOptimumRequest request = request_on(market, tick, 0, 13 * tick / 10, 2 * tick);
  const OfflineOptimum exact = solve_offline_optimum(request);
  ASSERT_TRUE(exact.feasible);
  EXPECT_EQ(exact.schedule, "Ds");
  EXPECT_EQ(exact.schedule_held, (std::vector<Millis>{3 * tick / 10, tick}));
  EXPECT_NEAR(exact.on_demand_cost, 0.3 * 3.0 * to_hours(tick), 1e-12);
  EXPECT_NEAR(exact.spot_cost, 1.0 * to_hours(tick), 1e-12);
  EXPECT_NEAR(exact.cost, (0.3 * 3.0 + 1.0) * to_hours(tick), 1e-12);
  EXPECT_EQ(exact.finish, 2 * tick);
  expect_schedule_replays(request, exact);
  EXPECT_NEAR(brute_force_optimum(request), exact.cost, 1e-12);
  EXPECT_NEAR(brute_force_optimum(request, 0, false), (3.0 + 0.3 * 1.0) * to_hours(tick), 1e-12);
  // The cost-only solve agrees.
  request.want_schedule = false;
  EXPECT_EQ(solve_offline_optimum(request).cost, exact.cost);
  // Per-tick billing: a tick held part-way is paid in full, so both ticks are.
  request.per_tick_billing = true;
  request.want_schedule = true;
  const OfflineOptimum per_tick = solve_offline_optimum(request);
  EXPECT_NEAR(per_tick.cost, (3.0 + 1.0) * to_hours(tick), 1e-12);
  EXPECT_EQ(per_tick.schedule, "Ds");
  expect_schedule_replays(request, per_tick);
}

TEST(OfflineOptimum, InfeasibleDeadline) {
  const SpotMarket market = market_of({constant_zone(1.0, 3.0, std::nullopt)});
  const Millis tick = 600 * kSecond, d = 720 * kSecond;
  const OfflineOptimum late =
      solve_offline_optimum(request_on(market, tick, d, 10 * kMillisPerHour, 10 * kMillisPerHour));
  EXPECT_FALSE(late.feasible);
  // Exactly enough time is feasible: on-demand (or spot, always here) from the start.
  const OfflineOptimum tight =
      solve_offline_optimum(request_on(market, tick, d, 10 * kMillisPerHour, 10 * kMillisPerHour + d));
  EXPECT_TRUE(tight.feasible);
}

TEST(OfflineOptimum, RejectsNonsense) {
  const SpotMarket market = market_of({constant_zone(1.0, 3.0, std::nullopt)});
  const OfflineOptimumRequest good = request_on(market, 600 * kSecond, 0, kMillisPerHour, 2 * kMillisPerHour);
  EXPECT_NO_THROW(solve_offline_optimum(good));
  OfflineOptimumRequest bad = good;
  bad.tick = 0;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.work = 0;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.changeover = -1;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.deadline = 0;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.nodes = 0;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.market = nullptr;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
  bad = good;
  bad.work = 10 * kMillisPerHour + 1;  // a 1 ms grid: refused rather than allocating gigabytes
  bad.deadline = 20 * kMillisPerHour;
  EXPECT_THROW(solve_offline_optimum(bad), InputError);
}

// The Can't Be Late setting (NSDI'24): one zone of recorded availability on 600 s ticks, on-demand 3.06 USD/h,
// spot 0.9731 USD/h, a 48 h job with a 12 min changeover and a 52 h deadline.
TEST(OfflineOptimum, CantBeLateTrace) {
  const SpotMarket market = read_trace_file(std::string(SPOTSIM_REPO_DIR) +
                                            "/experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json");
  ASSERT_EQ(market.zones.size(), 1u);
  const Millis tick = 600 * kSecond, d = 720 * kSecond, work = 48 * kMillisPerHour;
  for (const Millis start_tick : {0, 137, 1000, 3800}) {  // the last one wraps past the recording's end
    OfflineOptimumRequest request = request_on(market, tick, d, work, 52 * kMillisPerHour);
    request.start = start_tick * tick;
    request.per_tick_billing = true;
    // Holds last at least min(tick, changeover) >= the trace's 60 s minimum, on whole seconds.
    EXPECT_TRUE(billing_rules_cannot_bind(request));
    const OfflineOptimum result = solve_offline_optimum(request);
    ASSERT_TRUE(result.feasible);
    EXPECT_LE(result.cost, 147.90 + 1e-9) << "on-demand only: 290 ticks x 3.06 USD/h";
    EXPECT_NEAR(3.06 * to_hours(290 * tick), 147.90, 1e-9);
    EXPECT_GE(result.cost, 0.9731 * to_hours(d + work) - 1e-9);
    EXPECT_GT(result.spot_cost, 0.0);
    expect_schedule_replays(request, result);

    request.per_tick_billing = false;
    const OfflineOptimum exact = solve_offline_optimum(request);
    EXPECT_LE(exact.cost, result.cost + 1e-9);
    EXPECT_GE(exact.cost, 0.9731 * to_hours(d + work) - 1e-9);
    expect_schedule_replays(request, exact);
  }
}

}  // namespace
}  // namespace spotsim

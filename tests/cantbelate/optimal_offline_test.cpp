// `optimal-offline` plays the optimum's schedule in the engines: its cost must equal the optimum computed for the same
// window, and it must meet the deadline — the dynamic programme and both engines checked against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "engine/replication_runner.hpp"
#include "model/market/zone_selection.hpp"
#include "model/scenario.hpp"
#include "optimum/window_optimum.hpp"
#include "policies/policy_registry.hpp"
#include "reference_runs.hpp"
#include "tests/support/case_budget.hpp"
#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

TEST(OptimalOffline, CostsExactlyTheOptimumAndMeetsTheDeadlineInBothModes) {
  const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories factories{registry.selection_factory("optimal-offline"),
                                  registry.checkpoint_factory("continuous")};
  const auto windows = static_cast<std::uint64_t>(case_budget("OPTIMAL_OFFLINE_WINDOWS", 12, 6, 3));
  for (const char* name : {"cbl-aws-10-26-2022-us-west-2a_v100_1", "cbl-aws-10-26-2022-us-west-2b_k80_1",
                           "cbl-aws-02-15-2023-us-east-2b_v100_1"}) {
    const SpotMarket market =
        read_trace_file(testing::repo_path(std::string("experiments/traces/cbl/") + name + ".json"));
    for (const double deadline : {52.0, 64.0, 80.0}) {
      for (const bool tick_mode : {false, true}) {
        Scenario scenario(market, testing::reference_job(deadline), TraceStart{});
        if (tick_mode) scenario.use_cant_be_late_mode();
        scenario.compute_optimum(true);
        for (const RunResult& r : run_replications(scenario, factories, ReplicationPlan{3, 0, windows, 2})) {
          EXPECT_TRUE(r.deadline_met) << name << " " << deadline << " h, tick mode " << tick_mode << ", from "
                                      << r.trace_start_hours << " h: finished at " << r.completion_hours << " h";
          EXPECT_NEAR(r.cost_total, r.optimum_cost, 1e-6 * r.optimum_cost)
              << name << " " << deadline << " h, tick mode " << tick_mode << ", from " << r.trace_start_hours << " h";
        }
      }
    }
  }
}

// Four GCP H100 zones in four regions on two continents, as docs/policies.md#optimal-offline shows them.
SpotMarket four_gcp_regions() {
  return select_zones(
      read_trace_file(testing::repo_path("traces/library/gcp-h100-13-zones.json")),
      ZoneSelection{ZoneSelection::By::kZones, {"asia-southeast1-c", "asia-south2-b", "us-west1-b", "europe-west3-c"}},
      "--zones");
}

// Multi-region (moving the checkpoint costs transfer time and egress): the policy plays the schedule of the
// migration optimum (optimum/migration_optimum.hpp). Where the grid is exact the cost played is the optimum's; where
// transfers do not fall on an affordable grid they are rounded up for the schedule, so it still meets the deadline and
// costs at least the optimum (a lower bound) and little more. Four GCP H100 zones in four regions, two continents.
TEST(OptimalOffline, PlaysTheMultiRegionOptimumWithItsMoves) {
  const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories factories{registry.selection_factory("optimal-offline"),
                                  registry.checkpoint_factory("continuous")};
  const SpotMarket market = four_gcp_regions();
  // Windows where the optimum moves (2, 1, 1 and 1 moves from 180, 80, 100 and 200 h) and one where it does not:
  // fixed, so that every build (the sanitized one runs the first two) sees the migration schedule.
  const double starts[] = {180.0, 80.0, 100.0, 200.0, 40.0};
  const int windows = case_budget("OPTIMAL_OFFLINE_MULTI_REGION_WINDOWS", 5, 3, 2);
  for (const bool whole_seconds : {true, false}) {
    int moves = 0;
    JobSpec job;
    job.work = 10 * kMillisPerHour;
    job.startup = 12 * kMillisPerMinute;
    job.restore = 0;
    job.checkpoint_write = 0;
    job.deadline = 13 * kMillisPerHour;
    job.checkpoint_size_gb = 50.0;
    if (whole_seconds) {  // 50 s within a continent, 100 s across: the automatic grid (10 s) is exact
      job.same_continent_gbps = 8.0;
      job.cross_continent_gbps = 4.0;
    }  // else the default bandwidths: 48.8 s and 111.4 s, no affordable exact grid
    for (int w = 0; w < std::min<int>(windows, std::size(starts)); ++w) {
      Scenario scenario(market, job, TraceStart{false, millis_from_hours(starts[w])});
      ASSERT_TRUE(scenario.has_migration_costs());
      ASSERT_EQ(window_optimum_grid(scenario).exact, whole_seconds);
      scenario.compute_optimum(true);
      const RunResult r = run_replications(scenario, factories, ReplicationPlan{5, 0, 1, 1}).front();
      const std::string where = std::string(whole_seconds ? "exact grid" : "transfers rounded up") + ", from " +
                                std::to_string(r.trace_start_hours) + " h";
      EXPECT_TRUE(r.deadline_met) << where << ": finished at " << r.completion_hours << " h";
      if (whole_seconds) {
        EXPECT_NEAR(r.cost_total, r.optimum_cost, 1e-6 * r.optimum_cost) << where;
      } else {
        EXPECT_GE(r.cost_total, r.optimum_cost * (1 - 1e-9)) << where;
        EXPECT_LE(r.cost_total, r.optimum_cost * 1.01) << where;
      }
      moves += r.migrations;
    }
    EXPECT_GT(moves, 0) << "no window moved the checkpoint: the test would not see the migration schedule";
  }
}

// SkyNomad's own job, 43.19 h (155,484 s) with a deadline of 1.2x in seconds: gcd(tick, changeover, work,
// deadline) is 1 s, a grid on which the schedule of four zones would need about 9 GB. The policy then plans on a
// coarser divisor of gcd(tick, changeover) with the work rounded up and the deadline down to it: the run must meet
// the real deadline and cost at least the optimum and little more (the window of docs/policies.md#optimal-offline).
TEST(OptimalOffline, AJobInOddSecondsPlaysAScheduleForMoreWorkByAnEarlierDeadline) {
  const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories factories{registry.selection_factory("optimal-offline"),
                                  registry.checkpoint_factory("continuous")};
  const SpotMarket market = four_gcp_regions();
  JobSpec job;
  job.work = 155'484 * kMillisPerSecond;
  job.deadline = 186'581 * kMillisPerSecond;
  job.startup = 12 * kMillisPerMinute;
  job.restore = 0;
  job.checkpoint_write = 0;
  job.checkpoint_size_gb = 50.0;
  Scenario scenario(market, job, TraceStart{false, millis_from_hours(189.0)});
  scenario.compute_optimum(true);
  const RunResult r = run_replications(scenario, factories, ReplicationPlan{1, 0, 1, 1}).front();
  EXPECT_TRUE(r.deadline_met) << "finished at " << r.completion_hours << " h";
  EXPECT_NEAR(r.work_done_hours, 43.19, 1e-9);
  EXPECT_GE(r.cost_total, r.optimum_cost * (1 - 1e-9));
  EXPECT_LE(r.cost_total, r.optimum_cost * 1.01);
  EXPECT_GT(r.migrations, 0);
}

TEST(OptimalOffline, NeedsARecordingWithATickAndADeadline) {
  const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories factories{registry.selection_factory("optimal-offline"),
                                  registry.checkpoint_factory("continuous")};
  const SpotMarket market = read_trace_file(testing::repo_path("traces/library/us-west1.json"));
  const Scenario no_tick(market, testing::reference_job(60.0), TraceStart{});
  EXPECT_NE(testing::error_of([&] {
              run_replications(no_tick, factories, ReplicationPlan{1, 0, 1, 1});
            }).find("policy 'optimal-offline': trace 'us-west1' has no tick"),
            std::string::npos);
}

}  // namespace
}  // namespace spotsim

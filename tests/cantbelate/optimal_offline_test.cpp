// `optimal-offline` plays the optimum's schedule in the engines: its cost must equal the optimum computed for the same
// window, and it must meet the deadline — the dynamic programme and both engines checked against each other.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/replication_runner.hpp"
#include "model/scenario.hpp"
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

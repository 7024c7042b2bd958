// The offline optimum is a lower bound on every policy, on the very windows they ran on: the 40 reference windows
// (both modes) and random windows of the 13 single-zone traces shipped in experiments/traces/cbl/.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "engine/replication_runner.hpp"
#include "model/scenario.hpp"
#include "policies/policy_registry.hpp"
#include "reference_runs.hpp"
#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

const char* const kPolicies[] = {"on-demand",       "greedy",   "uniform-progress",  "uniform-progress:idle_ahead=true",
                                 "optimal-offline", "adaptive", "adaptive:plan=off", "spot-only"};

// Every completed run costs at least the optimum of its window; runs that met the deadline are never cheaper.
int count_runs_below_optimum(const Scenario& scenario, const std::string& policy, std::uint64_t replications) {
  // One registry for every run: `adaptive`'s plans (the Can't Be Late mode) are solved once per job and deadline.
  static const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories factories{registry.selection_factory(policy), registry.checkpoint_factory("continuous")};
  int below = 0;
  for (const RunResult& r : run_replications(scenario, factories, ReplicationPlan{7, 0, replications, 2})) {
    EXPECT_FALSE(std::isnan(r.optimum_cost));
    if (r.deadline_met && r.cost_total < r.optimum_cost - 1e-9) {
      if (++below <= 3) {
        ADD_FAILURE() << policy << " on " << scenario.market().name << " from " << r.trace_start_hours << " h: cost "
                      << r.cost_total << " below the optimum " << r.optimum_cost;
      }
    }
  }
  return below;
}

TEST(OfflineOptimumBound, NoPolicyBeatsItOnTheReferenceWindowsInEitherMode) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  std::map<std::string, SpotMarket> markets;
  for (const auto& w : testing::read_reference_windows()) {
    if (!markets.count(w.pair)) markets.emplace(w.pair, testing::reference_market(w.pair));
    for (const double deadline : {52.0, 60.0, 70.0, 80.0}) {
      for (const bool tick_mode : {true, false}) {
        Scenario scenario(markets.at(w.pair), testing::reference_job(deadline),
                          TraceStart{false, w.start_tick * 600 * kMillisPerSecond});
        if (tick_mode) scenario.use_cant_be_late_mode();
        scenario.compute_optimum(true);
        for (const char* policy : kPolicies) EXPECT_EQ(count_runs_below_optimum(scenario, policy, 1), 0);
      }
    }
  }
}

TEST(OfflineOptimumBound, NoPolicyBeatsItOnRandomWindowsOfTheShippedTraces) {
  for (const char* name : {"cbl-aws-10-26-2022-us-west-2a_v100_1", "cbl-aws-10-26-2022-us-west-2b_k80_1",
                           "cbl-aws-02-15-2023-us-east-1f_v100_1"}) {
    const SpotMarket market =
        read_trace_file(testing::repo_path(std::string("experiments/traces/cbl/") + name + ".json"));
    for (const double deadline : {52.0, 64.0}) {
      Scenario scenario(market, testing::reference_job(deadline), TraceStart{});
      scenario.compute_optimum(true);
      for (const char* policy : kPolicies) EXPECT_EQ(count_runs_below_optimum(scenario, policy, 12), 0) << name;
    }
  }
}

}  // namespace
}  // namespace spotsim

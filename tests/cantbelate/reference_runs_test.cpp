// The Can't Be Late compatibility mode against 480 per-window runs of the authors' own simulator
// (../shared/data/validation/cant-be-late-reference): every run must cost the same within 0.01 USD, finish at
// the same moment, and hold the same instance in every tick.
#include "reference_runs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/tick_simulation.hpp"
#include "model/scenario.hpp"
#include "policies/policy_registry.hpp"
#include "trace_test_paths.hpp"

namespace spotsim {
namespace {

using testing::ReferenceRun;

TEST(CantBeLateReference, EveryReferenceRunIsReproducedTickByTick) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const auto windows = testing::read_reference_windows();
  const auto runs = testing::read_reference_runs();
  ASSERT_EQ(runs.size(), 480u);
  std::map<std::pair<std::string, int>, int> start_tick;
  for (const auto& w : windows) start_tick[{w.pair, w.window}] = w.start_tick;
  std::map<std::string, SpotMarket> markets;
  const PolicyRegistry registry = builtin_policy_registry();

  int mismatches = 0;
  for (const ReferenceRun& ref : runs) {
    if (!markets.count(ref.pair)) markets.emplace(ref.pair, testing::reference_market(ref.pair));
    const SpotMarket& market = markets.at(ref.pair);
    ASSERT_EQ(market.tick, 600 * kMillisPerSecond);
    Scenario scenario(market, testing::reference_job(ref.deadline_hours),
                      TraceStart{false, start_tick.at({ref.pair, ref.window}) * market.tick});
    scenario.use_cant_be_late_mode();
    auto policy = registry.selection_factory(testing::spotsim_policy(ref.policy))();
    TickSimulation simulation(scenario, *policy);
    simulation.record_ticks(true);
    const RunResult r = simulation.run(1, 0);
    const bool same = std::abs(r.cost_total - ref.cost) <= 0.01 && simulation.held_per_tick() == ref.types &&
                      std::abs(r.completion_hours - ref.finish_exact_hours) < 1e-9 && r.deadline_met;
    if (!same && ++mismatches <= 10) {
      ADD_FAILURE() << ref.pair << " window " << ref.window << " deadline " << ref.deadline_hours << " h, "
                    << ref.policy << ": cost " << r.cost_total << " vs " << ref.cost << ", finish "
                    << r.completion_hours << " vs " << ref.finish_exact_hours << " h\n  spotsim "
                    << simulation.held_per_tick() << "\n  theirs  " << ref.types;
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << runs.size() << " reference runs";
}

}  // namespace
}  // namespace spotsim

// What one solve of the `planned` policy's plan costs (docs/policies.md#planned): a 48 h job with a 70 h deadline on
// 600 s ticks (420 steps, 22 h of slack in 10 bins per step), changeover 0.1 h, 12 spell ages: about 40 M states.
// The policy solves once per run start and shares the plan among runs that start alike. With two regimes and a belief
// over them on B points the table is B times larger.
#include <benchmark/benchmark.h>

#include "policies/slack_plan.hpp"

namespace spotsim {
namespace {

// Range 0: belief points (1: one regime, as with regimes=zones or pooled; 3: the default two-regime belief plan).
void BM_SlackPlanSolve(benchmark::State& state) {
  SlackPlanInput in;
  in.steps = 420;
  in.bins_per_step = 10;
  in.slack_bins = 22 * 6 * 10;
  in.changeover_bins = 6;
  in.spot_cost_per_step = 0.9731 / 3.06;
  in.on_demand_cost_per_step = 1.0;
  for (int a = 0; a < 12; ++a) {
    in.stay_up.push_back(0.7 + 0.02 * a);
    in.stay_down.push_back(0.6 + 0.025 * a);
  }
  if (state.range(0) > 1) {
    for (int a = 0; a < 12; ++a) {
      in.stay_up_2.push_back(0.85 + 0.01 * a);
      in.stay_down_2.push_back(0.4 + 0.04 * a);
    }
    in.belief_points = static_cast<int>(state.range(0));
  }
  SlackPlan plan;
  for (auto _ : state) {
    plan.solve(in);
    benchmark::DoNotOptimize(plan.expected_cost(PlanHeld::kNone, true, 0, in.slack_bins));
  }
  state.counters["table_bytes"] = SlackPlan::table_bytes(in);
}
BENCHMARK(BM_SlackPlanSolve)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

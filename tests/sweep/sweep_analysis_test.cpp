// Summaries of a sweep on hand-built runs: Pareto marking, paired differences against the baseline policy and
// checkpoint tuning, each against values computed by hand.
#include "app/sweep/sweep_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "app/run_metrics.hpp"
#include "app/sweep/configuration_samples.hpp"
#include "app/sweep/pareto.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "policies/checkpoint_math.hpp"

namespace spotsim {
namespace {

TEST(Pareto, MarksTheNonDominatedPoints) {
  const std::vector<ObjectivePoint> points = {
      {1, 10},    // A: on
      {2, 5},     // B: on
      {3, 5},     // C: dominated by B (same time, dearer)
      {2, 5},     // D: equal to B, neither dominates: on
      {0.5, 20},  // E: cheapest: on
      {NAN, 1},   // F: unknown cost: never on
      {4, 1},     // G: fastest: on
      {4, 2},     // H: dominated by G
      {1.5, 12},  // I: dominated by A
  };
  const std::vector<bool> expected = {true, true, false, true, true, false, true, false, false};
  EXPECT_EQ(pareto_frontier(points), expected);
  EXPECT_TRUE(pareto_frontier({}).empty());
  EXPECT_EQ(pareto_frontier({{3, 3}}), std::vector<bool>{true});
}

// on-demand and spot-only x (young-daly, fixed 30m, 1h, 2h) x 1 job x 4 replications: configurations 0-3 are
// on-demand, 4-7 spot-only.
struct HandBuiltSweep {
  SweepPlan plan;
  std::vector<RunResult> runs;

  HandBuiltSweep() {
    const auto doc = nlohmann::json::parse(R"({
      "format": "spotsim-experiment", "version": 1, "name": "hand", "replications": 4,
      "traces": ["t"], "policies": ["on-demand", "spot-only"], "baseline_policy": "on-demand",
      "checkpoints": ["young-daly"], "checkpoint_intervals": ["30m", "1h", "2h"], "job": {"work_hours": 10}})");
    plan = plan_sweep(parse_experiment_spec(doc, "hand.json"), {TraceInfo{"t", "t", 1, "0", {2.0}, {}}});
    runs.resize(plan.run_count());
    set(0, {30, 30, 30, 30}, {10, 10, 10, 10});
    set(1, {10, 12, 14, 16}, {11, 11, 11, 11});
    set(2, {40, 40, 40, 40}, {9, 9, 9, 9});
    set(3, {50, 50, 50, 50}, {10, 10, 10, 10});
    set(4, {18, 19, 20, 21}, {12, 12, 12, 12});
    set(5, {7, 10, 10, 13}, {13, 13, 13, 13});
    set(6, {19, 20, 21, 22}, {12, 13, 12, 13});
    set(7, {19.5, 19.6, 21.6, 22.1}, {20, 20, 20, 20});
  }
  void set(std::size_t configuration, std::vector<double> cost, std::vector<double> hours) {
    for (std::size_t r = 0; r < 4; ++r) {
      RunResult& run = runs[configuration * 4 + r];
      run.replication = r;
      run.cost_total = cost[r];
      run.completion_hours = hours[r];
    }
  }
};

const std::size_t kCost = 0;  // run_metrics() order

TEST(SweepPaired, DifferencesAgainstTheBaselinePolicyMatchHandComputation) {
  ASSERT_STREQ(run_metrics()[kCost].name, "cost_total");
  const HandBuiltSweep sweep;
  const SweepAnalysis analysis = analyse_sweep(sweep.plan, sweep.runs);
  // Configuration 5 = spot-only with fixed 30m; its baseline is on-demand with fixed 30m = configuration 1.
  const auto& paired = analysis.configurations[5].vs_baseline;
  ASSERT_TRUE(paired.has_value());
  EXPECT_EQ(paired->baseline_configuration, 1u);
  // d = [7-10, 10-12, 10-14, 13-16] = [-3, -2, -4, -3]: mean -3, sd sqrt(2/3), half width t(3, .975) sd / 2.
  const Summary& d = paired->by_metric[kCost];
  const double half = 3.182446305284263 * std::sqrt(2.0 / 3.0) / 2.0;
  EXPECT_DOUBLE_EQ(d.mean, -3.0);
  EXPECT_NEAR(d.sd, std::sqrt(2.0 / 3.0), 1e-12);
  EXPECT_NEAR(d.ci_low, -3.0 - half, 1e-9);
  EXPECT_NEAR(d.ci_high, -3.0 + half, 1e-9);
  // Pairing removes the common noise: the interval is narrower than either configuration's own.
  EXPECT_LT(d.ci_high - d.ci_low,
            analysis.configurations[1].summaries[kCost].ci_high - analysis.configurations[1].summaries[kCost].ci_low);
  EXPECT_FALSE(analysis.configurations[1].vs_baseline.has_value());  // the baseline itself
}

TEST(SweepPareto, MarksConfigurationsOnTheFrontierOfTheirTraceAndJob) {
  const HandBuiltSweep sweep;
  const SweepAnalysis analysis = analyse_sweep(sweep.plan, sweep.runs);
  // Means (cost, hours): 0 (30,10) 1 (13,11) 2 (40,9) 3 (50,10) 4 (19.5,12) 5 (10,13) 6 (20.5,12.5) 7 (20.7,20).
  const std::vector<bool> expected_mean = {true, true, true, false, false, true, false, false};
  for (std::size_t c = 0; c < expected_mean.size(); ++c) {
    EXPECT_EQ(analysis.configurations[c].pareto_mean, expected_mean[c]) << "configuration " << c;
  }
  // p95 of configuration 6's hours is 13 (> 12.5 mean), of 5's cost 12.55: 5 stays on the p95 frontier.
  EXPECT_TRUE(analysis.configurations[5].pareto_p95);
  EXPECT_FALSE(analysis.configurations[3].pareto_p95);
}

TEST(SweepTuning, ReportsTheBestIntervalItsPlausibleRangeAndTheReferences) {
  const HandBuiltSweep sweep;
  const SweepAnalysis analysis = analyse_sweep(sweep.plan, sweep.runs);
  ASSERT_EQ(analysis.tuning.size(), 2u);  // one per (trace, job, policy)
  const CheckpointTuning& t = analysis.tuning[1];
  EXPECT_EQ(t.policy, 1u);
  // Fixed intervals for spot-only: 30m mean 10, 1h mean 20.5, 2h mean 20.7: 30m is best.
  EXPECT_EQ(t.best_interval, 30 * kMillisPerMinute);
  EXPECT_EQ(t.best_configuration, 5u);
  EXPECT_DOUBLE_EQ(t.best_metric.mean, 10.0);
  // 1h − 30m = [12, 10, 11, 9]: clearly worse; 2h − 30m = [12.5, 9.6, 11.6, 9.1]: clearly worse too.
  EXPECT_EQ(t.plausible_low, 30 * kMillisPerMinute);
  EXPECT_EQ(t.plausible_high, 30 * kMillisPerMinute);
  EXPECT_NEAR(t.young_interval_hours, young_interval(1.0 / 60.0, 2.0), 1e-12);
  EXPECT_NEAR(t.daly_interval_hours, daly_interval(1.0 / 60.0, 2.0), 1e-12);
  ASSERT_EQ(t.references.size(), 1u);  // young-daly
  EXPECT_EQ(t.references[0].configuration, 4u);
  EXPECT_DOUBLE_EQ(t.references[0].metric.mean, 19.5);
  EXPECT_DOUBLE_EQ(t.references[0].difference_to_best.mean, 9.5);
}

TEST(SweepTuning, IntervalsWithinNoiseOfTheBestWidenThePlausibleRange) {
  HandBuiltSweep sweep;
  sweep.set(5, {20, 21, 22, 23}, {13, 13, 13, 13});  // 30m: 21.5; 1h: 20.5 (best); 2h: 20.7
  const SweepAnalysis analysis = analyse_sweep(sweep.plan, sweep.runs);
  const CheckpointTuning& t = analysis.tuning[1];
  EXPECT_EQ(t.best_interval, kMillisPerHour);
  // 30m − 1h = [1, 1, 1, 1]: worse without doubt. 2h − 1h = [0.5, -0.4, 0.6, 0.1]: its CI straddles 0.
  EXPECT_EQ(t.plausible_low, kMillisPerHour);
  EXPECT_EQ(t.plausible_high, 2 * kMillisPerHour);
  const Summary d = paired_difference(sweep.plan, sweep.runs, 7, 6, kCost);
  EXPECT_LT(d.ci_low, 0.0);
  EXPECT_GT(d.ci_high, 0.0);
}

TEST(SweepOutputs, SummaryJsonCarriesSummariesPairedDifferencesAndPareto) {
  const HandBuiltSweep sweep;
  const SweepAnalysis analysis = analyse_sweep(sweep.plan, sweep.runs);
  const nlohmann::json j = sweep_summary_json(sweep.plan, analysis);
  const auto& c5 = j["configurations"][5];
  EXPECT_EQ(c5["policy"], "spot-only");
  EXPECT_EQ(c5["checkpoint"], "fixed:interval=30m");
  for (const char* key : {"n", "mean", "sd", "p50", "p95", "p99", "ci_low", "ci_high"}) {
    EXPECT_TRUE(c5["summary"]["cost_total"].contains(key)) << key;
  }
  EXPECT_EQ(c5["paired_vs_baseline"]["baseline_configuration"], 1);
  EXPECT_DOUBLE_EQ(c5["paired_vs_baseline"]["cost_total"]["mean"].get<double>(), -3.0);
  EXPECT_EQ(c5["pareto"]["mean"], true);
  EXPECT_TRUE(j["configurations"][1]["paired_vs_baseline"].is_null());
  EXPECT_EQ(j["checkpoint_tuning"][1]["best_interval"], "30m");
  const std::string markdown = sweep_summary_markdown(sweep.plan, analysis);
  EXPECT_NE(markdown.find("| 5 | t | job | `spot-only` | `fixed:interval=30m` | 10.00 ["), std::string::npos)
      << markdown;
}

}  // namespace
}  // namespace spotsim

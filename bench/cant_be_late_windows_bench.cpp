// The speed comparison of issue 14 and the speed table of docs/speed.md (./dev bench
// --benchmark_filter=CantBeLateWindows).
//
// The work: the same 300 windows of the Can't Be Late authors' us-west-2a V100 recording (committed as
// experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json; 10-minute ticks) for a 48 h job with deadline
// R = 52 h and changeover d = 0.2 h, lossless progress — the setting in which the authors' Python simulator takes
// 7–8 ms per window. Each iteration does what a sweep does per run, on one thread: simulate the window, write its
// chunk row (the exact record a sweep persists) and its runs.csv row.
#include <benchmark/benchmark.h>

#include <string>

#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_runner.hpp"
#include "bench/replication_loop.hpp"

namespace spotsim {
namespace {

constexpr std::uint64_t kWindows = 300;

SweepPlan cant_be_late_plan(const char* policy, LoadedTraces& traces, bool cant_be_late_mode) {
  nlohmann::json doc = {
      {"format", "spotsim-experiment"},
      {"version", 1},
      {"name", "cant-be-late-windows"},
      {"seed", 2024},
      {"replications", kWindows},
      {"traces", {std::string(SPOTSIM_REPO_DIR) + "/experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json"}},
      {"policies", {policy}},
      {"checkpoints", {"continuous"}},
      {"job",
       {{"name", "48h"},
        {"work_hours", 48},
        {"deadline_hours", 52},
        {"restore_s", 0},
        {"checkpoint_write_s", 0},
        {"startup_s", 720}}},
      {"chunk_runs", kWindows},
      {"mode", cant_be_late_mode ? "cant-be-late" : "event"}};
  ExperimentSpec spec = parse_experiment_spec(doc, "bench");
  traces = load_traces(spec, "bench");
  return plan_sweep(std::move(spec), traces.info);
}

void BM_CantBeLateWindows(benchmark::State& state, const char* policy, bool cant_be_late_mode) {
  bench::load_example_plugin_for(policy);
  LoadedTraces traces;
  const SweepPlan plan = cant_be_late_plan(policy, traces, cant_be_late_mode);
  const SweepExecutor executor(plan, traces.markets);
  std::string chunk, csv;
  for (auto _ : state) {
    const std::vector<RunResult> runs = executor.run_range(0, kWindows);
    chunk = chunk_file_text(plan, 0, runs);
    csv.clear();
    append_runs_csv(plan, 0, runs, csv);
    benchmark::DoNotOptimize(chunk.data());
    benchmark::DoNotOptimize(csv.data());
  }
  const auto runs = static_cast<double>(state.iterations() * kWindows);
  state.counters["us/run"] = benchmark::Counter(runs, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["runs/s"] = benchmark::Counter(runs, benchmark::Counter::kIsRate);
  // The authors' simulator's 7 ms per window (the low end of the 7-8 ms measured) divided by this per-run time.
  state.counters["x vs 7 ms"] = benchmark::Counter(runs * 0.007, benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_CantBeLateWindows, greedy, "greedy", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CantBeLateWindows, uniform_progress, "uniform-progress", false)->Unit(benchmark::kMillisecond);
// The same windows in the Can't Be Late mode (per-tick decisions and billing; policies that declare their review
// contract are asked only where their answer can change: engine/tick_simulation.hpp).
BENCHMARK_CAPTURE(BM_CantBeLateWindows, greedy_cant_be_late_mode, "greedy", true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CantBeLateWindows, uniform_progress_cant_be_late_mode, "uniform-progress", true)
    ->Unit(benchmark::kMillisecond);
// `planned`: one plan solved for the first window and shared by the other 299 (they start alike).
BENCHMARK_CAPTURE(BM_CantBeLateWindows, planned_cant_be_late_mode, "planned", true)->Unit(benchmark::kMillisecond);
// Spot-only built in and as the example's compiled plugin (policies/examples/plugin/): the cost of the C ABI.
BENCHMARK_CAPTURE(BM_CantBeLateWindows, spot_only, "spot-only", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CantBeLateWindows, plugin_spot_only, "plugin-spot-only", false)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

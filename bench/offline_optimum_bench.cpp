// Offline optimum speed (sim/offline_optimum.hpp) in the Can't Be Late setting: a 48 h job with a 720 s changeover
// on 600 s ticks (grid step q = 120 s) and deadlines of 52 h to 80 h, on the recorded us-west-2a V100 trace.
// Target: <= 50 ms per solve. The sliding-window case is what a sweep over a trace's start times does.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "sim/offline_optimum.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

const char* const kTrace = "experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json";

// The repository root, from this file's location (bench/ sits directly below it).
std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

OfflineOptimumRequest cant_be_late_request(const SpotMarket& market, Millis deadline_hours, bool per_tick) {
  OfflineOptimumRequest request;
  request.market = &market;
  request.tick = 600 * kMillisPerSecond;
  request.changeover = 720 * kMillisPerSecond;
  request.work = 48 * kMillisPerHour;
  request.deadline = deadline_hours * kMillisPerHour;
  request.per_tick_billing = per_tick;
  return request;
}

// One 92 h window; range(0) = deadline in hours, range(1) = 1 for per-tick billing, with the schedule.
void BM_OfflineOptimum_CantBeLate(benchmark::State& state) {
  const std::string path = repo_file(kTrace);
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("trace not found: " + path).c_str());
    return;
  }
  const SpotMarket market = read_trace_file(path);
  OfflineOptimumRequest request = cant_be_late_request(market, state.range(0), state.range(1) == 1);
  request.start = 1000 * request.tick;
  request.want_schedule = true;
  OfflineOptimumSolver solver;
  OfflineOptimum result;
  for (auto _ : state) {
    result = solver.solve(request);
    // Not DoNotOptimize(double): benchmark 1.7's register constraint can garble floating-point values under GCC.
    benchmark::DoNotOptimize(result.feasible);
  }
  state.counters["cost_usd"] = result.cost;
  state.counters["on_demand_share"] = result.on_demand_cost / result.cost;
}
BENCHMARK(BM_OfflineOptimum_CantBeLate)
    ->ArgsProduct({{52, 60, 70, 80}, {0, 1}})
    ->ArgNames({"deadline_h", "per_tick"})
    ->Unit(benchmark::kMillisecond);

// Consecutive windows with one reused solver, as in a sweep over start times (cost only, no schedule).
void BM_OfflineOptimum_SlidingWindows(benchmark::State& state) {
  const std::string path = repo_file(kTrace);
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("trace not found: " + path).c_str());
    return;
  }
  const SpotMarket market = read_trace_file(path);
  OfflineOptimumRequest request = cant_be_late_request(market, state.range(0), false);
  OfflineOptimumSolver solver;
  Millis start_tick = 0;
  for (auto _ : state) {
    request.start = (start_tick++ % 3000) * request.tick;
    benchmark::DoNotOptimize(solver.solve(request).feasible);
  }
  state.counters["windows/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OfflineOptimum_SlidingWindows)->Arg(52)->Arg(80)->ArgName("deadline_h")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

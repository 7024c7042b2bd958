// Offline optimum speed (optimum/offline_optimum.hpp) in the Can't Be Late setting: a 48 h job with a 720 s changeover
// and deadlines of 52 h to 80 h, on two recorded traces:
//   * 600 s ticks (us-west-2a V100, 10-26-2022): grid step q = gcd(600 s, 720 s) = 120 s. Target <= 15 ms per solve
//     at an 80 h deadline.
//   * 195 s ticks (us-east-1a V100, 02-15-2023): q = gcd(195 s, 720 s) = 15 s, 8x the progress values and 3x the
//     ticks. Target <= 60 ms per solve at an 80 h deadline.
// The regret experiments ask for the cost only (schedule = 0); the schedule needs back-pointers on top. The
// sliding-window cases are what a sweep over a trace's start times does.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "optimum/offline_optimum.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

const char* const kTrace600 = "experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json";
const char* const kTrace195 = "experiments/traces/cbl/cbl-aws-02-15-2023-us-east-1a_v100_1.json";

// The repository root, from this file's location (bench/ sits directly below it).
std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

// The trace's own clock (tick_s) is the decision tick.
OfflineOptimumRequest cant_be_late_request(const SpotMarket& market, Millis deadline_hours, bool per_tick) {
  OfflineOptimumRequest request;
  request.market = &market;
  request.tick = market.tick;
  request.changeover = 720 * kMillisPerSecond;
  request.work = 48 * kMillisPerHour;
  request.deadline = deadline_hours * kMillisPerHour;
  request.per_tick_billing = per_tick;
  return request;
}

bool load(benchmark::State& state, const char* trace, SpotMarket& market) {
  const std::string path = repo_file(trace);
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("trace not found: " + path).c_str());
    return false;
  }
  market = read_trace_file(path);
  return true;
}

// One window starting 1000 ticks into the trace; range(0) = deadline in hours, range(1) = 1 for per-tick billing,
// range(2) = 1 to ask for the schedule.
void BM_OfflineOptimum_CantBeLate(benchmark::State& state, const char* trace) {
  SpotMarket market;
  if (!load(state, trace, market)) return;
  OfflineOptimumRequest request = cant_be_late_request(market, state.range(0), state.range(1) == 1);
  request.start = 1000 * request.tick;
  request.want_schedule = state.range(2) == 1;
  OfflineOptimumSolver solver;
  OfflineOptimum result;
  for (auto _ : state) {
    result = solver.solve(request);
    // Not DoNotOptimize(double): benchmark 1.7's register constraint can garble floating-point values under GCC.
    benchmark::DoNotOptimize(result.feasible);
  }
  state.counters["cost_usd"] = result.cost;
  state.counters["tick_s"] = static_cast<double>(request.tick / kMillisPerSecond);
}
BENCHMARK_CAPTURE(BM_OfflineOptimum_CantBeLate, tick600, kTrace600)
    ->ArgsProduct({{52, 60, 70, 80}, {0, 1}, {0, 1}})
    ->ArgNames({"deadline_h", "per_tick", "schedule"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OfflineOptimum_CantBeLate, tick195, kTrace195)
    ->ArgsProduct({{52, 60, 70, 80}, {0, 1}, {0, 1}})
    ->ArgNames({"deadline_h", "per_tick", "schedule"})
    ->Unit(benchmark::kMillisecond);

// Consecutive windows with one reused solver, as in a sweep over start times (per-second billing, cost only).
void BM_OfflineOptimum_SlidingWindows(benchmark::State& state, const char* trace) {
  SpotMarket market;
  if (!load(state, trace, market)) return;
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
BENCHMARK_CAPTURE(BM_OfflineOptimum_SlidingWindows, tick600, kTrace600)
    ->Arg(52)
    ->Arg(80)
    ->ArgName("deadline_h")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OfflineOptimum_SlidingWindows, tick195, kTrace195)
    ->Arg(52)
    ->Arg(80)
    ->ArgName("deadline_h")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

// Sweep speed (Google Benchmark; ./dev bench --benchmark_filter=Sweep|TickTrace).
//
// - BM_SweepThroughput: runs/s of a realistic experiment — the README's 48 h A100 job on the shipped us-west1
//   trace, 5 selection policies x 2 checkpoint policies x 2 deadlines — on 2 threads, in memory and with the
//   chunk files a real sweep writes.
// - BM_TickTraceJob: one 48 h job with a 52 h deadline on a 10-minute-tick availability trace of ~92 h (552 ticks,
//   built in memory), the setting of the Can't Be Late simulator (Wu et al., NSDI'24), which steps its policy every
//   tick in Python at about 10 ms per job. The per-run time here is to be compared with those 10 ms.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "app/sweep/sweep_runner.hpp"
#include "bench/replication_loop.hpp"
#include "engine/job_simulation.hpp"
#include "model/random_streams.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {
namespace {

SweepPlan realistic_plan(std::uint64_t replications, LoadedTraces& traces) {
  nlohmann::json doc = {{"format", "spotsim-experiment"},
                        {"version", 1},
                        {"name", "bench"},
                        {"replications", replications},
                        {"traces", {"us-west1"}},
                        {"policies", {"on-demand", "spot-only", "greedy", "uniform-progress", "adaptive"}},
                        {"checkpoints", {"young-daly", "hazard"}},
                        {"job", {{"work_hours", 48}}},
                        {"job_grid", {{"deadline_hours", {nullptr, 56}}}},
                        {"chunk_runs", 1000}};
  ExperimentSpec spec = parse_experiment_spec(doc, "bench");
  traces = load_traces(spec, "bench");
  return plan_sweep(std::move(spec), traces.info);
}

void BM_SweepThroughput(benchmark::State& state, bool to_disk) {
  LoadedTraces traces;
  const SweepPlan plan = realistic_plan(500, traces);  // 20 configurations x 500 = 10,000 runs per iteration
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("spotsim_sweep_bench_" + std::to_string(::getpid()));
  std::uint64_t runs = 0;
  for (auto _ : state) {
    if (to_disk) {
      state.PauseTiming();
      std::filesystem::remove_all(dir);
      state.ResumeTiming();
      SweepRunOptions options;
      options.threads = 2;
      benchmark::DoNotOptimize(run_sweep(plan, traces.markets, dir.string(), options).complete);
    } else {
      benchmark::DoNotOptimize(run_all_runs(plan, traces.markets, 2).data());
    }
    runs += plan.run_count();
  }
  std::filesystem::remove_all(dir);
  state.counters["runs/s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
  state.counters["us/run (wall, 2 threads)"] =
      benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(BM_SweepThroughput, in_memory_2_threads, false)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SweepThroughput, with_chunk_files_2_threads, true)->Unit(benchmark::kMillisecond)->UseRealTime();

// A two-state availability recording: spells of availability and unavailability of geometric length (means 6 h
// and 1.5 h, about 80% available, in the range of the p3 traces of Wu et al.), one value per 10-minute tick.
SpotMarket tick_trace_market() {
  constexpr int kTicks = 552;  // 92 h
  RandomStream rng(7, 0, StreamPurpose::kGenerator, 0);
  std::vector<Millis> times;
  std::vector<double> values;
  bool up = true;
  for (int i = 0; i < kTicks; ++i) {
    times.push_back(static_cast<Millis>(i) * 10 * kMillisPerMinute);
    values.push_back(up ? 1.0 : 0.0);
    if (rng.uniform01() < (up ? 1.0 / 36.0 : 1.0 / 9.0)) up = !up;
  }
  SpotMarket market;
  market.name = "tick-trace";
  market.span = static_cast<Millis>(kTicks) * 10 * kMillisPerMinute;
  Zone zone;
  zone.name = "us-west-2a";
  zone.on_demand_price_per_hour = 3.06;
  zone.spot.price_per_hour = StepSeries::constant(0.918);
  zone.spot.available = StepSeries(times, values, market.span);
  zone.spot.notice = 120 * kMillisPerSecond;
  market.zones.push_back(zone);
  return market;
}

void BM_TickTraceJob(benchmark::State& state, const char* policy, bool cant_be_late_mode) {
  SpotMarket market = tick_trace_market();
  market.tick = 10 * kMillisPerMinute;
  JobSpec job;
  job.work = 48 * kMillisPerHour;
  job.deadline = 52 * kMillisPerHour;
  job.startup = 12 * kMillisPerMinute;  // changeover delay d = 0.2 h
  job.restore = 0;
  job.checkpoint_write = 0;
  Scenario scenario(market, job);
  if (cant_be_late_mode) scenario.use_cant_be_late_mode();
  const bench::ReplicationCounts n = bench::time_replications(state, scenario, policy, "continuous");
  const auto runs = static_cast<double>(n.replications);
  state.counters["runs/s"] = benchmark::Counter(runs, benchmark::Counter::kIsRate);
  state.counters["events/run"] = static_cast<double>(n.events) / runs;
  // The Python simulator's ~10 ms per job divided by this per-run time.
  state.counters["x faster than 10 ms"] = benchmark::Counter(runs * 0.010, benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_TickTraceJob, uniform_progress, "uniform-progress", false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TickTraceJob, greedy, "greedy", false)->Unit(benchmark::kMicrosecond);
// The same jobs in the Can't Be Late compatibility mode (engine/tick_simulation.hpp): the policy is asked every tick.
BENCHMARK_CAPTURE(BM_TickTraceJob, uniform_progress_cant_be_late_mode, "uniform-progress", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TickTraceJob, greedy_cant_be_late_mode, "greedy", true)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace spotsim

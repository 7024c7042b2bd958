// Engine speed (Google Benchmark; run with ./dev bench). Targets on one core: >= 20 M events/s on the hold model,
// >= 100,000 replications/s of a 1-week bathtub job with Young/Daly checkpoints.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "bench/replication_loop.hpp"
#include "engine/event_queue.hpp"
#include "engine/job_simulation.hpp"
#include "model/market/bathtub_lifetime.hpp"
#include "model/random_streams.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {
namespace {

// The classic hold model (Vaucher & Duval 1975): a queue of N pending events; each step pops the earliest and
// schedules a successor at its time plus an exponential increment. The increments are drawn beforehand (a
// cyclic table of 4096), so the figure measures the pending-event set, not the random number generator.
void BM_HoldModel(benchmark::State& state) {
  struct Payload {
    std::uint32_t kind, epoch;
  };
  const auto n = static_cast<std::size_t>(state.range(0));
  EventQueue<Payload> queue(n + 1);
  RandomStream rng(1, 0, StreamPurpose::kPolicy, 0);
  std::vector<Millis> increments(4096);
  for (Millis& inc : increments) inc = static_cast<Millis>(-1e6 * std::log(rng.uniform_open01()));
  for (std::size_t i = 0; i < n; ++i) queue.push(static_cast<Millis>(rng.uniform01() * 1e6), Payload{0, 0});
  std::size_t k = 0;
  for (auto _ : state) {
    const auto e = queue.pop();
    queue.push(e.time + increments[k++ & 4095], e.payload);
  }
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HoldModel)->Arg(8)->Arg(64)->Arg(1024)->Arg(16384);

// Replications of a one-week (168 h) single-node job on spot with bathtub lifetimes and Young/Daly checkpoints
// (2 min writes, 3 min restore, 5 min start-up), spot-only or adaptive selection. One thread.
void BM_WeekLongBathtubJob(benchmark::State& state, const char* selection) {
  SpotMarket market;
  market.name = "bench";
  Zone zone;
  zone.name = "bench-a";
  zone.on_demand_price_per_hour = 3.67;
  zone.spot.price_per_hour = StepSeries::constant(1.93);
  zone.spot.lifetime = BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0});
  zone.spot.notice = 30 * kMillisPerSecond;
  market.zones.push_back(zone);
  JobSpec job;
  job.work = 168 * kMillisPerHour;
  job.checkpoint_write = 2 * kMillisPerMinute;
  job.restore = 3 * kMillisPerMinute;
  job.startup = 5 * kMillisPerMinute;
  const bench::ReplicationCounts n = bench::time_replications(state, Scenario(market, job), selection, "young-daly");
  const auto replications = static_cast<double>(n.replications), events = static_cast<double>(n.events);
  state.counters["replications/s"] = benchmark::Counter(replications, benchmark::Counter::kIsRate);
  state.counters["events/s"] = benchmark::Counter(events, benchmark::Counter::kIsRate);
  state.counters["events/replication"] = events / replications;
}
BENCHMARK_CAPTURE(BM_WeekLongBathtubJob, spot_only, "spot-only");
BENCHMARK_CAPTURE(BM_WeekLongBathtubJob, adaptive, "adaptive");
// The same spot-only policy as a compiled plugin (policies/examples/plugin/): the cost of the C ABI.
BENCHMARK_CAPTURE(BM_WeekLongBathtubJob, plugin_spot_only, "plugin-spot-only");

void BM_BathtubSample(benchmark::State& state) {
  const BathtubLifetime model({0.4198, 0.975, 0.372, 24.33, 25.0});
  RandomStream rng(1, 0, StreamPurpose::kSpotLifetime, 0);
  for (auto _ : state) benchmark::DoNotOptimize(model.quantile(rng.uniform_open01()));
}
BENCHMARK(BM_BathtubSample);

}  // namespace
}  // namespace spotsim

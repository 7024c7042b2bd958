// The elastic engine (engine/elastic): one replication of a 16-instance job with one week of training on all 16,
// min_nodes 8, spot with a 2-instance on-demand core and hourly checkpoints. Goal: <= 50 us per replication on
// one core. Two markets: bathtub lifetimes per instance (GCP-like: many losses, each instance its own events), and
// a pool count in 5-minute ticks over 20 days shaped like the Can't Be Late 16-node recordings (long stretches at
// 16 or 0, short partial dips).
#include <benchmark/benchmark.h>

#include <random>

#include "engine/elastic/elastic_simulation.hpp"
#include "model/market/bathtub_lifetime.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {
namespace {

JobSpec week_job() {
  JobSpec job;
  job.work = 168 * kMillisPerHour;
  job.nodes = 16;
  job.elastic.min_nodes = 8;
  job.checkpoint_write = 2 * kMillisPerMinute;
  job.restore = 3 * kMillisPerMinute;
  job.startup = 5 * kMillisPerMinute;
  job.checkpoint_size_gb = 10.0;
  job.elastic.step_time_s_by_nodes.resize(16);
  for (int k = 1; k <= 16; ++k) job.elastic.step_time_s_by_nodes[static_cast<std::size_t>(k) - 1] = 0.30 + 0.004 * k;
  return job;
}

SpotMarket base_market() {
  SpotMarket market;
  market.name = "bench";
  Zone zone;
  zone.name = "bench-a";
  zone.on_demand_price_per_hour = 3.06;
  zone.spot.price_per_hour = StepSeries::constant(0.918);
  market.zones.push_back(zone);
  return market;
}

SpotMarket bathtub_market() {
  SpotMarket market = base_market();
  market.zones[0].spot.lifetime = BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0});
  return market;
}

SpotMarket pool_market() {
  SpotMarket market = base_market();
  const Millis tick = 5 * kMillisPerMinute;
  const int ticks = 20 * 24 * 12;
  std::mt19937 rng(16);
  std::vector<Millis> times;
  std::vector<double> values;
  int count = 16;
  for (int i = 0; i < ticks; ++i) {
    const auto u = rng() % 1000;
    if (u < 3)
      count = 0;  // the pool empties
    else if (u < 30)
      count = std::max(0, count - 1 - int(rng() % 4));  // a partial dip
    else if (u < 60)
      count = 16;  // back to full
    if (!values.empty() && values.back() == count) continue;
    times.push_back(i * tick);
    values.push_back(count);
  }
  market.span = ticks * tick;
  market.zones[0].spot.available = StepSeries(times, values, market.span);
  return market;
}

void BM_ElasticWeek16Nodes(benchmark::State& state, SpotMarket (*make_market)()) {
  const SpotMarket market = make_market();
  const Scenario scenario(market, week_job());
  const PolicyRegistry registry = builtin_policy_registry();
  auto policy = registry.node_factory("spot-nodes:core=2")();
  auto checkpoint = registry.checkpoint_factory("fixed:interval=1h")();
  ElasticSimulation simulation(scenario, *policy, *checkpoint);
  std::uint64_t replication = 0, events = 0;
  for (auto _ : state) {
    const RunResult r = simulation.run(1, replication++);
    events += r.events;
    benchmark::DoNotOptimize(r.cost_total);
  }
  state.counters["replications/s"] = benchmark::Counter(static_cast<double>(replication), benchmark::Counter::kIsRate);
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["events/replication"] = static_cast<double>(events) / static_cast<double>(replication);
}
BENCHMARK_CAPTURE(BM_ElasticWeek16Nodes, bathtub, bathtub_market)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ElasticWeek16Nodes, pool, pool_market)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace spotsim

// Speed of the offline optimum across regions (optimum/migration_optimum.hpp), in the setting: a 40 h job with
// a 180 s start-up, deadlines 1.2x and 1.5x the work, 9 zones in 3 regions (the nine recorded AWS V100 zones of
// 02-15-2023, us-east-1 / us-east-2 / us-west-2), a 50 GB or 1 TB checkpoint moved at 8.20 Gbit/s (49 s, 976 s) for
// 0.02 USD/GB of egress.
//   * 600 s decision ticks, constant prices: goal <= 1 s per solve.
//   * 195 s ticks (the recording's own clock) with a spot price that changes every tick (synthetic, deterministic).
// range(0): deadline in percent of the work; range(1): checkpoint GB; range(2): grid in s (0 = automatic);
// range(3): 1 for per-tick billing (no partial stops), 0 per second.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "optimum/migration_optimum.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

std::string repo_file(const std::string& relative) {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / relative).string();
}

// The nine zones in one market; with `varying_prices` each zone's spot price moves every 195 s tick.
bool nine_zones(benchmark::State& state, SpotMarket& market, bool varying_prices) {
  market = SpotMarket{};
  for (const char* zone : {"us-east-1a", "us-east-1c", "us-east-1d", "us-east-1f", "us-east-2a", "us-east-2b",
                           "us-west-2a", "us-west-2b", "us-west-2c"}) {
    const std::string path =
        repo_file(std::string("experiments/traces/cbl/cbl-aws-02-15-2023-") + zone + "_v100_1.json");
    if (!std::filesystem::exists(path)) {
      state.SkipWithError(("trace not found: " + path).c_str());
      return false;
    }
    const SpotMarket one = read_trace_file(path);
    if (market.zones.empty())
      market = one;
    else
      market.zones.push_back(one.zones.front());
  }
  if (varying_prices) {
    const Millis span = market.zones.front().spot.available->span();
    for (std::size_t z = 0; z < market.zones.size(); ++z) {
      std::vector<Millis> times;
      std::vector<double> prices;
      for (Millis t = 0; t < span; t += market.tick) {
        times.push_back(t);
        const auto k = static_cast<std::uint64_t>(t / market.tick) * 2654435761u + z * 97u;
        prices.push_back(0.9731 * (0.7 + 0.6 * static_cast<double>(k % 1000) / 1000.0));
      }
      market.zones[z].spot.price_per_hour = StepSeries(times, prices, span);
    }
  }
  return true;
}

MigrationOptimumRequest request_for(const SpotMarket& market, Millis tick, const benchmark::State& state) {
  MigrationOptimumRequest request;
  request.market = &market;
  request.tick = tick;
  request.changeover = 180 * kMillisPerSecond;
  request.work = 40 * kMillisPerHour;
  request.deadline = request.work * state.range(0) / 100;
  request.start = 1000 * tick;
  request.grid = state.range(2) * kMillisPerSecond;
  request.per_tick_billing = state.range(3) == 1;
  request.zone_region = {0, 0, 0, 0, 1, 1, 2, 2, 2};
  const double gb = static_cast<double>(state.range(1));
  const Millis transfer = static_cast<Millis>(std::ceil(gb * 8.0 / 8.20)) * kMillisPerSecond;
  request.transfer.assign(9, transfer);
  request.egress_usd.assign(9, gb * 0.02);
  for (int a = 0; a < 3; ++a) {
    request.transfer[static_cast<std::size_t>(a * 4)] = 0;
    request.egress_usd[static_cast<std::size_t>(a * 4)] = 0.0;
  }
  return request;
}

void run(benchmark::State& state, const SpotMarket& market, MigrationOptimumRequest request) {
  MigrationOptimumSolver solver;
  MigrationOptimum result;
  for (auto _ : state) {
    result = solver.solve(request);
    benchmark::DoNotOptimize(result.feasible);
  }
  state.counters["cost_usd"] = result.cost;
  state.counters["exact"] = result.exact ? 1 : 0;
  state.counters["grid_s"] = static_cast<double>(result.grid) / kMillisPerSecond;
  (void)market;
}

void BM_MigrationOptimum_Tick600(benchmark::State& state) {
  SpotMarket market;
  if (!nine_zones(state, market, false)) return;
  run(state, market, request_for(market, 600 * kMillisPerSecond, state));
}
BENCHMARK(BM_MigrationOptimum_Tick600)
    ->ArgsProduct({{120, 150}, {50, 1000}, {0}, {0, 1}})
    ->Args({150, 50, 1, 0})
    ->Args({150, 50, 1, 1})
    ->ArgNames({"deadline_pct", "checkpoint_gb", "grid_s", "per_tick"})
    ->Unit(benchmark::kMillisecond);

void BM_MigrationOptimum_Tick195VaryingPrices(benchmark::State& state) {
  SpotMarket market;
  if (!nine_zones(state, market, true)) return;
  run(state, market, request_for(market, market.tick, state));
}
BENCHMARK(BM_MigrationOptimum_Tick195VaryingPrices)
    ->ArgsProduct({{120, 150}, {50, 1000}, {0}, {0, 1}})
    ->ArgNames({"deadline_pct", "checkpoint_gb", "grid_s", "per_tick"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

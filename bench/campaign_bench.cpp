// Campaign speed (docs/campaign.md#speed). Goal: a 40-trial campaign over 14 days of recorded H100 capacity in
// <= 10 ms per replication, one thread.
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>

#include "app/campaign/job_stream_csv.hpp"
#include "engine/campaign/campaign_simulation.hpp"
#include "policies/policy_registry.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

// The capacity counts when they are shipped, else the 13-zone availability (a count of 0 or 1 per zone).
std::string h100_trace() {
  const std::string library = std::string(SPOTSIM_REPO_DIR) + "/traces/library/";
  if (std::ifstream(library + "gcp-h100-capacity-13-zones.json")) return library + "gcp-h100-capacity-13-zones.json";
  return library + "gcp-h100-13-zones.json";
}

// `trials` one-GPU trials of 4 to 12 h arriving together, a 3-day deadline, Young/Daly checkpoints, replication
// after replication on one thread.
void run_campaign(benchmark::State& state, int trials, const char* selection, bool halving) {
  const SpotMarket market = read_trace_file(h100_trace());
  CampaignSpec spec;
  JobSpec defaults;
  defaults.deadline = 3 * kMillisPerDay;
  spec.jobs = sweep_trials(trials, 4 * kMillisPerHour, 12 * kMillisPerHour, defaults);
  if (halving) spec.early_stopping = successive_halving(3.0, 1.0 / 9.0);
  const PolicyRegistry registry = builtin_policy_registry();
  const PolicyFactories policies{registry.selection_factory(selection), registry.checkpoint_factory("young-daly")};
  CampaignSimulation simulation(market, spec, policies);
  std::uint64_t replication = 0, events = 0;
  for (auto _ : state) {
    const CampaignRun run = simulation.run(1, replication++);
    events += run.events;
    benchmark::DoNotOptimize(run.cost_total);
  }
  state.counters["replications/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["events/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["events/replication"] =
      benchmark::Counter(static_cast<double>(events) / static_cast<double>(state.iterations()));
}

// 40 trials; `halving`: successive halving (eta 3, rungs 1/9 and 1/3).
void BM_FortyTrialCampaign(benchmark::State& state, const char* selection, bool halving) {
  run_campaign(state, 40, selection, halving);
}
BENCHMARK_CAPTURE(BM_FortyTrialCampaign, spot_only, "spot-only", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FortyTrialCampaign, greedy, "greedy", false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_FortyTrialCampaign, greedy_halving, "greedy", true)->Unit(benchmark::kMillisecond);

// The same campaign at 40 to 1,000 trials, `greedy` (docs/campaign.md#speed: the slope in trials). Goal of the speed
// issue: 1,000 trials in <= 50 ms per replication, linear in trials.
void BM_CampaignScaling(benchmark::State& state) {
  run_campaign(state, static_cast<int>(state.range(0)), "greedy", false);
}
BENCHMARK(BM_CampaignScaling)->Arg(40)->Arg(160)->Arg(640)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace spotsim

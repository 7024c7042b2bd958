#pragma once
// The timed loop shared by the single-job benchmarks: one JobSimulation (or TickSimulation in the Can't Be Late
// mode) with the named policies, one replication per benchmark iteration (a fresh replication index each time, so every
// iteration draws new preemptions).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "engine/job_simulation.hpp"
#include "engine/tick_simulation.hpp"
#include "model/scenario.hpp"
#include "policies/plugin/plugin_loader.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim::bench {

// Policies named plugin-* come from the example plugin (policies/examples/plugin/), loaded on first use.
inline void load_example_plugin_for(const std::string& policy) {
  if (policy.rfind("plugin-", 0) == 0) load_policy_plugin(SPOTSIM_EXAMPLE_PLUGIN);
}

struct ReplicationCounts {
  std::uint64_t replications = 0;
  std::uint64_t events = 0;
};

inline ReplicationCounts time_replications(benchmark::State& state, const Scenario& scenario,
                                           const std::string& selection, const std::string& checkpoint) {
  load_example_plugin_for(selection);
  load_example_plugin_for(checkpoint);
  const PolicyRegistry registry = policy_registry();
  auto select = registry.selection_factory(selection)();
  auto checkpointing = registry.checkpoint_factory(checkpoint)();
  ReplicationCounts counts;
  const auto loop = [&](auto& simulation) {
    for (auto _ : state) {
      const RunResult r = simulation.run(1, counts.replications++);
      counts.events += r.events;
      benchmark::DoNotOptimize(r.cost_total);
    }
  };
  if (scenario.cant_be_late_mode()) {  // the tick engine: one "event" per tick
    TickSimulation simulation(scenario, *select);
    loop(simulation);
    return counts;
  }
  JobSimulation simulation(scenario, *select, *checkpointing);
  for (auto _ : state) {
    const RunResult r = simulation.run(1, counts.replications++);
    counts.events += r.events;
    benchmark::DoNotOptimize(r.cost_total);
  }
  return counts;
}

}  // namespace spotsim::bench

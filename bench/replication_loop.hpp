#pragma once
// The timed loop shared by the single-job benchmarks: one JobSimulation with the named policies, one replication
// per benchmark iteration (a fresh replication index each time, so every iteration draws new preemptions).
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include "policies/policy_registry.hpp"
#include "sim/job_simulation.hpp"
#include "sim/scenario.hpp"

namespace spotsim::bench {

struct ReplicationCounts {
  std::uint64_t replications = 0;
  std::uint64_t events = 0;
};

inline ReplicationCounts time_replications(benchmark::State& state, const Scenario& scenario, const std::string& selection,
                                           const std::string& checkpoint) {
  const PolicyRegistry registry = builtin_policy_registry();
  auto select = registry.selection_factory(selection)();
  auto checkpointing = registry.checkpoint_factory(checkpoint)();
  JobSimulation simulation(scenario, *select, *checkpointing);
  ReplicationCounts counts;
  for (auto _ : state) {
    const RunResult r = simulation.run(1, counts.replications++);
    counts.events += r.events;
    benchmark::DoNotOptimize(r.cost_total);
  }
  return counts;
}

}  // namespace spotsim::bench

#pragma once
// Runs many replications of one scenario on a pool of threads. Each worker owns its JobSimulation and policy
// objects; replication r always uses the streams keyed by r and its result lands at index r, so the output is
// bit-identical for any number of threads.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "model/node_policy.hpp"
#include "model/policy_interfaces.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

struct PolicyFactories {
  std::function<std::unique_ptr<SelectionPolicy>()> selection;
  std::function<std::unique_ptr<CheckpointPolicy>()> checkpoint;
  // For jobs with min_nodes (the elastic engine); `selection` is then unused and may be empty.
  std::function<std::unique_ptr<NodePolicy>()> nodes{};
};

// How far a run of replications has got, for a progress line or the Python module to poll from another thread:
// the workers add to `done` once per chunk of 64 replications (relaxed: a count to show, never an input to a
// result); `total` is set by whoever knows the whole work (simulate: the replications; advise: offers x policies x
// replications), before starting it.
struct ReplicationProgress {
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> total{0};
};

struct ReplicationPlan {
  std::uint64_t seed = 1;
  std::uint64_t first_replication = 0;
  std::uint64_t count = 1;
  int threads = 0;                          // 0 = all hardware threads
  ReplicationProgress* progress = nullptr;  // optional; never changes a result
};

std::vector<RunResult> run_replications(const Scenario& scenario, const PolicyFactories& policies,
                                        const ReplicationPlan& plan);

int resolve_thread_count(int requested);

}  // namespace spotsim

#pragma once
// Replications as a stream: the plan runs in blocks (each on the thread pool of run_replications), and every block
// is handed to the consumer in replication order while the next one is computed. Memory stays at two blocks
// whatever the replication count, and the consumer sees exactly the sequence run_replications() would return.
#include <cstdint>
#include <functional>
#include <span>

#include "engine/replication_runner.hpp"

namespace spotsim {

inline constexpr std::uint64_t kReplicationBlock = 1u << 15;  // ~6 MB of RunResults; 0.1-1 s of work

void stream_replications(const Scenario& scenario, const PolicyFactories& policies, const ReplicationPlan& plan,
                         const std::function<void(std::span<const RunResult>)>& consume,
                         std::uint64_t block = kReplicationBlock);

}  // namespace spotsim

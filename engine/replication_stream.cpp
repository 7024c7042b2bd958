#include "engine/replication_stream.hpp"

#include <algorithm>
#include <future>
#include <vector>

namespace spotsim {

void stream_replications(const Scenario& scenario, const PolicyFactories& policies, const ReplicationPlan& plan,
                         const std::function<void(std::span<const RunResult>)>& consume, std::uint64_t block) {
  block = std::max<std::uint64_t>(block, 1);
  // Replication r is keyed by r alone (never by its block or thread), so a block is a plan with an offset.
  const auto compute = [&](std::uint64_t first) {
    ReplicationPlan part = plan;
    part.first_replication = plan.first_replication + first;
    part.count = std::min(block, plan.count - first);
    return run_replications(scenario, policies, part);
  };
  if (plan.count == 0) return;
  std::future<std::vector<RunResult>> next = std::async(std::launch::async, compute, std::uint64_t{0});
  for (std::uint64_t first = 0; first < plan.count; first += block) {
    const std::vector<RunResult> current = next.get();
    if (first + block < plan.count) next = std::async(std::launch::async, compute, first + block);
    consume(current);  // if this throws, `next`'s destructor waits for the block in flight
  }
}

}  // namespace spotsim

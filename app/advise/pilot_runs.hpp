#pragma once
// advise's pilot: a row's first replications run before the rest (docs/advise.md#pilot). A row any of whose pilot
// runs gives up before completing is left out of the ranking anyway (advice_ranking's exclusion_reason: "not every
// run completed"), and its runs are the slowest there are: they simulate every preemption up to the give-up time
// (128 one-GPU instances restarting together preempt tens of thousands of times in 730 h). So such a row is not run
// further but listed as skipped, with what its pilot saw. The pilot runs are the first replications of the row's
// plan, so a row that passes gets exactly the runs it would have had without a pilot, bit for bit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/replication_runner.hpp"

namespace spotsim {

inline constexpr std::uint64_t kPilotRuns = 4;

struct PilotedRuns {
  std::vector<RunResult> runs;                // every replication of the plan, or only the pilot's when pruned
  std::optional<std::string> pruned_because;  // "cannot finish: ..." when a pilot run gave up
};

// Runs replications first..first+min(count, kPilotRuns)-1, then the rest unless a pilot run did not complete; the
// progress counter (plan.progress) still reaches plan.count either way.
PilotedRuns run_with_pilot(const Scenario& scenario, const PolicyFactories& policies, const ReplicationPlan& plan);

}  // namespace spotsim

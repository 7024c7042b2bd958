#pragma once
// A checkpoint policy's plan as a table (docs/policies.md#schedules): the checkpoints it would write on one fresh
// spot instance that starts the job and is never preempted, by the instance's age. For `optimal-dp` and `hazard`,
// whose intervals change with age, this is what a user inspects before trusting them (a long gap in the quiet
// middle of a bathtub lifetime), and what `--checkpoint schedule:FILE` replays under another lifetime model.
#include <string>
#include <vector>

#include "app/simulation_request.hpp"

namespace spotsim {

struct PlannedCheckpoint {
  int index = 0;            // 1, 2, ...
  Millis instance_age = 0;  // age of the instance (since it was requested) when the write starts
  Millis interval = 0;      // compute since the previous checkpoint (or since the instance began computing)
  Millis work_saved = 0;    // work the checkpoint saves, from the job's start
  Millis remaining = 0;     // work left after it
};

// Asks the request's checkpoint policy as the event engine does: on a spot instance in `zone` of the request's trace
// (its lifetime model, or the recording's mean time between preemptions), first when computing starts after the
// start-up, then after each write. Ends when the next interval reaches the end of the work (or the policy never
// checkpoints). InputError for an unknown zone, a policy that is not a checkpoint policy, or more than
// kMaxPlannedCheckpoints checkpoints.
inline constexpr std::size_t kMaxPlannedCheckpoints = 1'000'000;
std::vector<PlannedCheckpoint> planned_checkpoints(const SimulationRequest& request, int zone = 0);

// The CSV `--checkpoint schedule:FILE` reads: checkpoint, instance_age_s (exact, to the millisecond),
// instance_age_h, interval_h, work_saved_h, remaining_h.
std::string checkpoint_schedule_csv(const std::vector<PlannedCheckpoint>& rows);

}  // namespace spotsim

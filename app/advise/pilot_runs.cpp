#include "app/advise/pilot_runs.hpp"

#include <algorithm>

#include "base/progress_line.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

// "cannot finish: 0 of 4 pilot runs completed; they gave up at 730.2 h after 32,335 preemptions on average"
std::string cannot_finish(const std::vector<RunResult>& pilot) {
  std::size_t completed = 0;
  double hours = 0.0;
  double preemptions = 0.0;
  for (const RunResult& run : pilot) {
    completed += run.completed ? 1 : 0;
    hours += run.completion_hours;
    preemptions += run.preemptions;
  }
  const double n = static_cast<double>(pilot.size());
  return "cannot finish: " + std::to_string(completed) + " of " + std::to_string(pilot.size()) +
         " pilot runs completed before giving up (mean " + format_fixed(hours / n, 1) + " h, " +
         group_thousands(static_cast<std::uint64_t>(preemptions / n + 0.5)) + " preemptions per run); not run further";
}

}  // namespace

PilotedRuns run_with_pilot(const Scenario& scenario, const PolicyFactories& policies, const ReplicationPlan& plan) {
  ReplicationPlan pilot_plan = plan;
  pilot_plan.count = std::min(plan.count, kPilotRuns);
  PilotedRuns out;
  out.runs = run_replications(scenario, policies, pilot_plan);
  const bool gave_up =
      std::any_of(out.runs.begin(), out.runs.end(), [](const RunResult& run) { return !run.completed; });
  if (gave_up) {
    out.pruned_because = cannot_finish(out.runs);
    if (plan.progress) plan.progress->done += plan.count - pilot_plan.count;
    return out;
  }
  if (plan.count > pilot_plan.count) {
    ReplicationPlan rest = plan;
    rest.first_replication = plan.first_replication + pilot_plan.count;
    rest.count = plan.count - pilot_plan.count;
    std::vector<RunResult> more = run_replications(scenario, policies, rest);
    out.runs.insert(out.runs.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return out;
}

}  // namespace spotsim

// Checkpoint schedules exported and replayed (docs/policies.md#schedules): `simulate --checkpoint-schedule` writes a
// policy's plan by instance age, `--checkpoint schedule:FILE` replays it. Where the plan depends on the instance's
// age only (hazard, restarts without a restore), the replay is the policy, run for run; optimal-dp's also depends on
// the work left, so the replay equals it on the runs without a preemption; under another model the replay runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/checkpoint_schedule_table.hpp"
#include "app/simulation_request.hpp"
#include "base/errors.hpp"
#include "tests/support/scratch_path.hpp"

namespace spotsim {
namespace {

SimulationRequest bathtub_job(const std::string& checkpoint) {
  SimulationRequest r;
  r.trace = "us-west1";  // the GCP bathtub lifetime model
  r.checkpoint = checkpoint;
  r.policy = "spot-only";
  r.job.work = 48 * kMillisPerHour;
  r.job.checkpoint_write = 5 * kMillisPerMinute;
  r.job.restore = 0;  // every instance then begins computing at the same age as the first
  r.replications = 300;
  r.seed = 5;
  r.threads = 2;
  return r;
}

std::string exported(const SimulationRequest& request, const std::string& name) {
  const std::string path = spotsim::testing::scratch_path(name + ".csv");
  std::ofstream(path) << checkpoint_schedule_csv(planned_checkpoints(request));
  return path;
}

std::string error_of(const std::string& csv) {
  const std::string path = spotsim::testing::scratch_path("bad-schedule.csv");
  std::ofstream(path) << csv;
  try {
    (void)planned_checkpoints(bathtub_job("schedule:" + path));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointScheduleExport, ShowsOptimalDpsLongGapInTheQuietMiddle) {
  const std::vector<PlannedCheckpoint> plan = planned_checkpoints(bathtub_job("optimal-dp"));
  ASSERT_GE(plan.size(), 3u);
  Millis longest = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].index, static_cast<int>(i) + 1);
    EXPECT_EQ(plan[i].work_saved + plan[i].remaining, 48 * kMillisPerHour);
    if (i > 0) {
      EXPECT_EQ(plan[i].instance_age - plan[i - 1].instance_age, plan[i].interval + 5 * kMillisPerMinute);
    }
    longest = std::max(longest, plan[i].interval);
  }
  EXPECT_EQ(plan[0].instance_age, bathtub_job("").job.startup + plan[0].interval);
  EXPECT_GT(longest, 15 * kMillisPerHour) << "the early hazard fades: one long interval before the 24 h limit";
}

TEST(CheckpointScheduleReplay, HazardsScheduleReplaysAsHazardRunForRun) {
  const SimulationReport policy = run_simulation(bathtub_job("hazard"));
  const SimulationReport replay = run_simulation(bathtub_job("schedule:" + exported(bathtub_job("hazard"), "h")));
  ASSERT_EQ(policy.runs.size(), replay.runs.size());
  int preempted = 0;
  for (std::size_t i = 0; i < policy.runs.size(); ++i) {
    EXPECT_EQ(policy.runs[i].fingerprint, replay.runs[i].fingerprint) << i;
    EXPECT_EQ(policy.runs[i].cost_total, replay.runs[i].cost_total) << i;
    EXPECT_EQ(policy.runs[i].checkpoints, replay.runs[i].checkpoints) << i;
    preempted += policy.runs[i].preemptions > 0;
  }
  EXPECT_GT(preempted, 30) << "restarts exercised: ages are per instance";
}

TEST(CheckpointScheduleReplay, OptimalDpsScheduleEqualsItWithoutPreemptionsAndRunsUnderAnotherModel) {
  const auto short_job = [](const std::string& checkpoint) {  // 12 h: many runs finish on their first instance
    SimulationRequest r = bathtub_job(checkpoint);
    r.job.work = 12 * kMillisPerHour;
    return r;
  };
  const std::string plan = exported(short_job("optimal-dp"), "dp");
  const SimulationReport policy = run_simulation(short_job("optimal-dp"));
  const SimulationReport replay = run_simulation(short_job("schedule:file=" + plan));
  int unpreempted = 0;
  for (std::size_t i = 0; i < policy.runs.size(); ++i) {
    if (policy.runs[i].preemptions > 0 || replay.runs[i].preemptions > 0) continue;
    ++unpreempted;
    EXPECT_EQ(policy.runs[i].completion_hours, replay.runs[i].completion_hours) << i;
    EXPECT_EQ(policy.runs[i].checkpoints, replay.runs[i].checkpoints) << i;
  }
  EXPECT_GT(unpreempted, 30);
  // The same plan on a recorded AWS trace (preemptions from the recording, not the bathtub model).
  SimulationRequest elsewhere = short_job("schedule:" + plan);
  elsewhere.trace = "aws-us-west-2-v100";
  const SimulationReport other = run_simulation(elsewhere);
  elsewhere.checkpoint = "optimal-dp";
  const SimulationReport native = run_simulation(elsewhere);
  double replayed_cost = 0.0, native_cost = 0.0;
  for (std::size_t i = 0; i < other.runs.size(); ++i) {
    EXPECT_TRUE(other.runs[i].completed) << i;
    replayed_cost += other.runs[i].cost_total;
    native_cost += native.runs[i].cost_total;
  }
  EXPECT_NE(replayed_cost, native_cost);
}

TEST(CheckpointScheduleReplay, RefusesFilesItCannotRead) {
  EXPECT_NE(error_of("").find("an empty file"), std::string::npos);
  EXPECT_NE(error_of("checkpoint,age\n1,2\n").find("a column instance_age_s or instance_age_h"), std::string::npos);
  EXPECT_NE(error_of("instance_age_s\n").find("a header only"), std::string::npos);
  EXPECT_NE(error_of("instance_age_s\n600\n300\n").find("ages that increase"), std::string::npos);
  EXPECT_NE(error_of("instance_age_h\n-1\n").find("instance_age_h"), std::string::npos);
  EXPECT_NE(error_of("instance_age_s\nten\n").find("instance_age_s"), std::string::npos);
  EXPECT_NE(error_of("a,instance_age_s\n1,600\n2\n").find("2 fields as in the header"), std::string::npos);
  EXPECT_EQ(error_of("instance_age_h\n0.5\n2\n"), "");  // hours are enough
  EXPECT_NE(error_of("instance_age_s\n0\n").find("above 0"), std::string::npos);
}

}  // namespace
}  // namespace spotsim

// The engine's behaviour on small hand-built markets where every number can be worked out by hand.
#include "engine/job_simulation.hpp"

#include <gtest/gtest.h>

#include "engine/replication_runner.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

using testing::job;
using testing::policies;

// Spot available on [0, 10h) and [12h, 30h) of a 30 h recording, never preempted otherwise.
SpotMarket availability_market(Millis notice = 0) {
  SpotMarket market = testing::single_zone_market(std::nullopt, 1.0, 4.0, notice);
  market.span = 30 * kMillisPerHour;
  market.zones[0].spot.available =
      StepSeries({0, 10 * kMillisPerHour, 12 * kMillisPerHour}, {1.0, 0.0, 1.0}, market.span);
  return market;
}

RunResult run_once(const SpotMarket& market, const JobSpec& j, const std::string& selection,
                   const std::string& checkpoint) {
  const Scenario scenario(market, j, TraceStart{false, 0});
  return run_replications(scenario, policies(selection, checkpoint), {1, 0, 1, 1}).front();
}

TEST(JobSimulation, AvailabilityDropPreemptsAndTheJobWaitsForSpot) {
  // 15 h of work, checkpoint every 4 h (1 min write), 6 min start-up, 3 min restore.
  const JobSpec j = job(15.0, kMillisPerMinute, 3 * kMillisPerMinute, 6 * kMillisPerMinute);
  const RunResult r = run_once(availability_market(), j, "spot-only", "fixed:interval=4h");
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.preemptions, 1);
  // Before the drop at 10 h: 0.1 h start-up, then 4 h + 1 min, 4 h + 1 min, then 1.8667 h of compute lost.
  const double first_instance_compute = 10.0 - 0.1 - 2 * (4.0 + 1.0 / 60.0);
  EXPECT_NEAR(r.lost_work_hours, first_instance_compute, 1e-9);
  EXPECT_NEAR(r.wait_hours, 2.0, 1e-9);
  // From 12 h: start-up, restore, the remaining 7 h with one checkpoint at 4 h (12 h of progress).
  EXPECT_NEAR(r.completion_hours, 12.0 + 0.1 + 0.05 + 7.0 + 1.0 / 60.0, 1e-9);
  EXPECT_EQ(r.checkpoints, 3);
  EXPECT_NEAR(r.cost_total, 1.0 * (r.completion_hours - 2.0), 1e-9);  // billed whenever held, exactly
}

TEST(JobSimulation, EmergencyCheckpointInTheNoticeSavesTheWork) {
  const JobSpec j = job(15.0, kMillisPerMinute, 3 * kMillisPerMinute, 6 * kMillisPerMinute);
  // 2 min notice: the 1 min write fits, so nothing computed before the drop is lost.
  const RunResult r =
      run_once(availability_market(2 * kMillisPerMinute), j, "spot-only", "fixed:interval=4h,on_notice=true");
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_NEAR(r.lost_work_hours, 0.0, 1e-12);
  EXPECT_EQ(r.checkpoints, 4);
  // Progress at the notice (10 h - 2 min): start-up and two writes off 9.9667 h of wall time.
  const double saved = 10.0 - 2.0 / 60.0 - 0.1 - 2.0 / 60.0;
  EXPECT_NEAR(r.completion_hours, 12.0 + 0.1 + 0.05 + (15.0 - saved) + 1.0 / 60.0, 1e-9);  // one more write
}

TEST(JobSimulation, NoCheckpointLosesEverythingOnPreemption) {
  const JobSpec j = job(15.0, kMillisPerMinute, 3 * kMillisPerMinute, 6 * kMillisPerMinute);
  const RunResult r = run_once(availability_market(), j, "spot-only", "none");
  EXPECT_NEAR(r.lost_work_hours, 10.0 - 0.1, 1e-9);
  EXPECT_NEAR(r.completion_hours, 12.0 + 0.1 + 15.0, 1e-9);  // no restore: nothing to restore
  EXPECT_EQ(r.checkpoints, 0);
}

TEST(JobSimulation, ContinuousCheckpointingKeepsAllProgress) {
  // The Can't Be Late model: a preemption costs only the changeover delay (the start-up).
  const JobSpec j = job(15.0, kMillisPerMinute, 3 * kMillisPerMinute, 12 * kMillisPerMinute);
  const RunResult r = run_once(availability_market(), j, "spot-only", "continuous");
  EXPECT_EQ(r.lost_work_hours, 0.0);
  EXPECT_NEAR(r.completion_hours, 12.0 + 0.2 + (15.0 - (10.0 - 0.2)), 1e-9);
  EXPECT_EQ(r.restore_hours, 0.0);
}

TEST(JobSimulation, GivesUpWhenSpotNeverComes) {
  SpotMarket market = availability_market();
  market.zones[0].spot.available = StepSeries({0}, {0.0}, market.span);
  JobSpec j = job(5.0, kMillisPerMinute, kMillisPerMinute, kMillisPerMinute);
  j.give_up_after = 40 * kMillisPerHour;
  const RunResult r = run_once(market, j, "spot-only", "young-daly");
  EXPECT_FALSE(r.completed);
  EXPECT_FALSE(r.deadline_met);
  EXPECT_DOUBLE_EQ(r.completion_hours, 40.0);
  EXPECT_EQ(r.cost_total, 0.0);
  EXPECT_DOUBLE_EQ(r.wait_hours, 40.0);
}

TEST(JobSimulation, RecordedPreemptionTimesInterruptTheJob) {
  SpotMarket market = testing::single_zone_market(std::nullopt, 1.0, 4.0);
  market.span = 100 * kMillisPerHour;
  market.zones[0].spot.preemption_times = {5 * kMillisPerHour, 7 * kMillisPerHour};
  market.zones[0].spot.preemption_period = market.span;
  const JobSpec j = job(10.0, 0, 0, 0);
  const RunResult r = run_once(market, j, "spot-only", "continuous");
  EXPECT_EQ(r.preemptions, 2);
  EXPECT_NEAR(r.completion_hours, 10.0, 1e-9);
}

TEST(JobSimulation, DeadlineIsReported) {
  const SpotMarket market = testing::single_zone_market(std::nullopt, 1.0, 4.0);
  JobSpec j = job(10.0, 0, 0, 30 * kMillisPerMinute);
  j.deadline = 10 * kMillisPerHour;
  EXPECT_FALSE(run_once(market, j, "on-demand", "none").deadline_met);
  j.deadline = 10 * kMillisPerHour + 30 * kMillisPerMinute;
  EXPECT_TRUE(run_once(market, j, "on-demand", "none").deadline_met);
}

TEST(JobSimulation, MultiNodeJobsAreInterruptedByTheFirstNodeToGo) {
  // Four exponential nodes with mean 40 h behave like one with mean 10 h.
  JobSpec j = job(100.0, 0, 0, 0);
  j.nodes = 4;
  const SpotMarket four = testing::single_zone_market(ExponentialLifetime{40.0});
  const auto runs4 = run_replications(Scenario(four, j), policies("spot-only", "continuous"), {1, 0, 4000, 0});
  double preemptions = 0;
  for (const auto& r : runs4) preemptions += r.preemptions;
  // Poisson with mean 100/10 = 10 per run: the mean over 4000 runs has sd 0.05.
  EXPECT_NEAR(preemptions / 4000.0, 10.0, 0.2);
  EXPECT_NEAR(runs4[0].cost_total, 4 * runs4[0].spot_hours, 1e-9);  // four instances billed
}

TEST(JobSimulation, FingerprintPinsTheTrajectory) {
  // A golden fingerprint of the event trajectory (OMNeT++-style): any change in the model's behaviour changes
  // it. If you changed behaviour on purpose, update the value and say why in the commit message.
  const SpotMarket market =
      testing::single_zone_market(BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0}), 1.0, 3.0, 30000);
  const JobSpec j = job(168.0, 2 * kMillisPerMinute, 3 * kMillisPerMinute, 5 * kMillisPerMinute);
  const auto runs =
      run_replications(Scenario(market, j), policies("spot-only", "young-daly:on_notice=true"), {7, 0, 3, 1});
  EXPECT_EQ(runs[0].fingerprint, 13404237990603057197ULL);
  EXPECT_EQ(runs[2].fingerprint, 6988779556398663828ULL);
  EXPECT_EQ(runs[0].events, 383ULL);
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

// Spot at first, asking to be reviewed at `switch_at`; then on-demand for good.
class SwitchToOnDemandAt final : public SelectionPolicy {
 public:
  explicit SwitchToOnDemandAt(Millis at) : at_(at) {}
  SelectionDecision decide(const Observation& obs) override {
    if (obs.now >= at_) return SelectionDecision::on_demand(0);
    return SelectionDecision::spot(0, at_);
  }

 private:
  Millis at_;
};

// Regression (found by the deadline-guarantee property test): a move to on-demand decided while an emergency
// checkpoint was being written in a preemption notice left the emergency flag set, so the first periodic
// checkpoint on on-demand then "drained" forever, waiting for a preemption that on-demand never has.
TEST(JobSimulation, MovingToOnDemandDuringAnEmergencyCheckpointKeepsTraining) {
  const SpotMarket market = availability_market(2 * kMillisPerMinute);  // notice at 9 h 58 min, write 1 min
  const JobSpec j = job(15.0, kMillisPerMinute, 3 * kMillisPerMinute, 6 * kMillisPerMinute);
  const Scenario scenario(market, j, TraceStart{false, 0});
  SwitchToOnDemandAt selection(10 * kMillisPerHour - 90 * kMillisPerSecond);  // inside the emergency write
  auto checkpoint = builtin_policy_registry().checkpoint_factory("fixed:interval=4h,on_notice=true")();
  const RunResult r = JobSimulation(scenario, selection, *checkpoint).run(1, 0);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.preemptions, 0);  // the instance was released before the drop
  EXPECT_EQ(r.on_demand_starts, 1);
  EXPECT_NEAR(r.wait_hours, 0.0, 1e-12);
}

}  // namespace
}  // namespace spotsim

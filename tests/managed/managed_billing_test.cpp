// Managed-service billing by hand on small cases (docs/managed.md#mapping): a 2 h job on demand with the service's
// increment and minimum, start-up billed or not; managed spot on a recorded preemption: training time billed,
// restart from the last checkpoint with the start-up and restore, and max_wait exceeded -> not completed.
#include <gtest/gtest.h>

#include "app/advise/managed_scenario.hpp"
#include "engine/replication_runner.hpp"
#include "model/scenario.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {
namespace {

constexpr Millis kS = kMillisPerSecond;

ManagedOffer offer(ManagedMode mode, double price, Millis increment, Millis minimum, bool startup_billed) {
  ManagedOffer o;
  o.service = startup_billed ? "vertex-ai" : "sagemaker";
  o.cloud = startup_billed ? "gcp" : "aws";
  o.mode = mode;
  o.region = "test-region";
  o.instance_type = "test-1g";
  o.gpu = "A100-40GB";
  o.price_per_hour = price;
  o.billing_increment = increment;
  o.billing_minimum = minimum;
  o.startup = 300 * kS;
  o.startup_billed = startup_billed;
  if (mode == ManagedMode::kSpot) {
    o.restarts_from_checkpoint = true;
    o.preemption = "one-preemption";
  }
  return o;
}

// One recorded preemption at 5,400 s after the job's start, no notice; never preempted again.
GpuOfferCatalogue catalogue_with_one_preemption() {
  GpuOfferCatalogue c;
  c.path = "test catalogue";
  PreemptionSource s;
  s.name = "one-preemption";
  s.origin = "test";
  s.basis = "recorded";
  s.spot.preemption_times = {5400 * kS};
  s.spot.notice = 0;
  c.sources.emplace(s.name, s);
  return c;
}

JobSpec job(Millis work) {
  JobSpec j;
  j.work = work;
  j.nodes = 1;
  j.checkpoint_write = 60 * kS;
  j.restore = 60 * kS;
  return j;
}

RunResult run_one(const ManagedOffer& o, const JobSpec& j, const std::string& checkpoint) {
  const GpuOfferCatalogue catalogue = catalogue_with_one_preemption();
  const ManagedScenario s = managed_scenario(o, j, catalogue);
  const Scenario scenario(s.market, s.job);
  const PolicyRegistry registry = policy_registry();
  auto runs = run_replications(
      scenario, {registry.selection_factory(s.selection_policy), registry.checkpoint_factory(checkpoint)},
      ReplicationPlan{1, 0, 1, 1, nullptr});
  apply_managed_billing(o, runs.front());
  return runs.front();
}

TEST(ManagedBilling, ScenarioUsesTheServicesOverheadBillingAndPolicy) {
  ManagedOffer o = offer(ManagedMode::kSpot, 10.0, 30 * kS, 30 * kS, true);
  o.max_wait = 7200 * kS;
  const ManagedScenario s = managed_scenario(o, job(3600 * kS), catalogue_with_one_preemption());
  EXPECT_EQ(s.selection_policy, "spot-only");
  EXPECT_EQ(s.job.startup, 300 * kS);
  EXPECT_EQ(s.job.give_up_after, 7200 * kS);
  EXPECT_EQ(s.market.billing.increment, 30 * kS);
  EXPECT_EQ(s.market.billing.minimum, 30 * kS);
  ASSERT_EQ(s.market.zones.size(), 1u);
  EXPECT_DOUBLE_EQ(s.market.zones[0].spot.price_per_hour.at(0), 10.0);
  EXPECT_EQ(s.market.zones[0].spot.preemption_times, std::vector<Millis>{5400 * kS});
  EXPECT_EQ(managed_scenario(offer(ManagedMode::kOnDemand, 1, kS, 0, false), job(kS), catalogue_with_one_preemption())
                .selection_policy,
            "on-demand");
}

// 2 h + 1 s of work at $4/h on demand, start-up 300 s billed, 30 s increments: 7,501 s held -> 251 increments of
// 30 s = 7,530 s billed = $8.366667.
TEST(ManagedBilling, OnDemandRoundsToTheIncrementAndBillsStartUp) {
  const RunResult r = run_one(offer(ManagedMode::kOnDemand, 4.0, 30 * kS, 30 * kS, true), job(7201 * kS), "none");
  ASSERT_TRUE(r.completed);
  EXPECT_NEAR(r.cost_total, 4.0 * 7530.0 / 3600.0, 1e-9);
  EXPECT_NEAR(r.cost_on_demand, r.cost_total, 1e-12);
  EXPECT_NEAR(r.completion_hours, 7501.0 / 3600.0, 1e-9);
}

// The same job on SageMaker's terms (per second, start-up not billed): 7,501 s held, 300 s of it start-up ->
// 7,201 s billed = $8.001111.
TEST(ManagedBilling, OnDemandWithoutBilledStartUp) {
  const RunResult r = run_one(offer(ManagedMode::kOnDemand, 4.0, kS, 0, false), job(7201 * kS), "none");
  ASSERT_TRUE(r.completed);
  EXPECT_NEAR(r.cost_total, 4.0 * 7201.0 / 3600.0, 1e-9);
  EXPECT_NEAR(r.cost_on_demand, r.cost_total, 1e-12);
  EXPECT_EQ(r.ledger_startup, 0.0);
}

// Managed spot at $10/h, per second, start-up not billed; 1.75 h of work, a checkpoint every 1 h of compute, one
// preemption at 5,400 s:
//   0-300 start-up, 300-3,900 compute 1 h, 3,900-3,960 checkpoint, 3,960-5,400 compute lost (1,440 s), preempted;
//   5,400-5,700 start-up, 5,700-5,760 restore, 5,760-8,460 the remaining 0.75 h; done at 8,460 s = 2.35 h.
// Held 5,400 + 3,060 = 8,460 s, of which 600 s start-up: billed 7,860 s = $21.833333.
TEST(ManagedBilling, SpotBillsTrainingTimeAndRestartsFromTheLastCheckpoint) {
  const RunResult r = run_one(offer(ManagedMode::kSpot, 10.0, kS, 0, false), job(6300 * kS), "fixed:interval=1h");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.spot_starts, 2);
  EXPECT_NEAR(r.completion_hours, 8460.0 / 3600.0, 1e-9);
  EXPECT_NEAR(r.lost_work_hours, 1440.0 / 3600.0, 1e-9);
  EXPECT_NEAR(r.cost_total, 10.0 * 7860.0 / 3600.0, 1e-9);
  EXPECT_NEAR(r.cost_spot, r.cost_total, 1e-12);
}

// The same with the start-up billed (Vertex AI's terms as assumed): all 8,460 s held are billed = $23.5.
TEST(ManagedBilling, SpotWithBilledStartUp) {
  const RunResult r = run_one(offer(ManagedMode::kSpot, 10.0, kS, 0, true), job(6300 * kS), "fixed:interval=1h");
  ASSERT_TRUE(r.completed);
  EXPECT_NEAR(r.cost_total, 10.0 * 8460.0 / 3600.0, 1e-9);
}

// max_wait 2 h (waiting + running, from the job's start) is over before the 2.35 h the job needs: the service ends
// it, not completed; billed 5,400 + 1,800 s held less 600 s start-up = 6,600 s = $18.333333.
TEST(ManagedBilling, MaxWaitExceededEndsTheJob) {
  ManagedOffer o = offer(ManagedMode::kSpot, 10.0, kS, 0, false);
  o.max_wait = 7200 * kS;
  const RunResult r = run_one(o, job(6300 * kS), "fixed:interval=1h");
  EXPECT_FALSE(r.completed);
  EXPECT_NEAR(r.completion_hours, 2.0, 1e-9);
  EXPECT_NEAR(r.cost_total, 10.0 * 6600.0 / 3600.0, 1e-9);
}

TEST(ManagedBilling, BillingCorrectionIsIdempotent) {
  RunResult r;
  r.cost_total = r.cost_spot = 10.0;
  r.ledger_startup = 1.0;
  const ManagedOffer o = offer(ManagedMode::kSpot, 1, kS, 0, false);
  apply_managed_billing(o, r);
  apply_managed_billing(o, r);
  EXPECT_DOUBLE_EQ(r.cost_total, 9.0);
  EXPECT_DOUBLE_EQ(r.cost_spot, 9.0);
}

}  // namespace
}  // namespace spotsim

// Migration of the saved state between regions in the event-driven engine (docs/migration.md), on two-zone
// markets whose every number is worked out by hand in the comments.
#include <gtest/gtest.h>

#include "app/job_reader.hpp"
#include "base/errors.hpp"
#include "engine/job_simulation.hpp"
#include "migration_markets.hpp"

namespace spotsim {
namespace {

using testing::availability;
using testing::FixedCheckpoints;
using testing::kEgressPerGb;
using testing::kSpotA;
using testing::kSpotB;
using testing::PreferZoneA;
using testing::two_zone_market;
using testing::ZoneAOnly;

constexpr Millis kMinute = kMillisPerMinute, kSecond = kMillisPerSecond;
constexpr double kSizeGb = 100.0;  // at 8 Gbit/s: 100 s of transfer, 2 USD of egress

// 20 h of work, a checkpoint every hour of compute (1 min write), 2 min restore, 5 min start-up.
JobSpec job() {
  JobSpec j;
  j.work = 20 * kMillisPerHour;
  j.checkpoint_write = kMinute;
  j.restore = 2 * kMinute;
  j.startup = 5 * kMinute;
  j.checkpoint_size_gb = kSizeGb;
  return j;
}

RunResult run(const SpotMarket& market, const JobSpec& spec, SelectionPolicy& selection, bool lossless = false) {
  const Scenario scenario(market, spec, TraceStart{false, 0});
  FixedCheckpoints checkpoints(kMillisPerHour, lossless);
  JobSimulation simulation(scenario, selection, checkpoints);
  return simulation.run(1, 0);
}

double hours(Millis t) { return to_hours(t); }

double ledger_sum(const RunResult& r) {
  return r.ledger_compute + r.ledger_lost_work + r.ledger_startup + r.ledger_restore + r.ledger_checkpoint +
         r.ledger_transfer + r.cost_egress + r.ledger_idle + r.ledger_rounding;
}

// Zone a has spot for the first 10 h only; b always.
SpotMarket a_for_ten_hours(const std::string& region_b = "r-b") {
  return two_zone_market(availability({0, 10 * kMillisPerHour}, {1, 0}), std::nullopt, region_b);
}

TEST(Migration, PreemptedInRegionAResumesInRegionB) {
  PreferZoneA policy;
  const RunResult r = run(a_for_ten_hours(), job(), policy);
  // On a: start-up to 5 min, then cycles of 60 min compute + 1 min write; at 10 h = 600 min, 9 cycles are done
  // (554 min, 9 h committed) and the 46 min computed since are lost. On b from 600 min: 5 min start-up, 100 s
  // transfer, 2 min restore, 11 h of compute with 10 writes (none after the last hour).
  const Millis on_b = 5 * kMinute + 100 * kSecond + 2 * kMinute + 660 * kMinute + 10 * kMinute;
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.checkpoints, 19);
  EXPECT_EQ(r.migrations, 1);
  EXPECT_DOUBLE_EQ(r.migration_hours, hours(100 * kSecond));
  EXPECT_DOUBLE_EQ(r.cost_egress, kSizeGb * kEgressPerGb);
  EXPECT_DOUBLE_EQ(r.completion_hours, hours(600 * kMinute + on_b));
  EXPECT_NEAR(r.lost_work_hours, hours(46 * kMinute), 1e-12);
  EXPECT_NEAR(r.startup_hours, hours(10 * kMinute), 1e-12);
  EXPECT_NEAR(r.restore_hours, hours(2 * kMinute), 1e-12);
  EXPECT_NEAR(r.cost_spot, kSpotA * 10.0 + kSpotB * hours(on_b), 1e-9);
  EXPECT_NEAR(r.cost_total, r.cost_spot + 2.0, 1e-12);
  // The ledger, phase by phase.
  EXPECT_NEAR(r.ledger_startup, kSpotA * hours(5 * kMinute) + kSpotB * hours(5 * kMinute), 1e-9);
  EXPECT_NEAR(r.ledger_transfer, kSpotB * hours(100 * kSecond), 1e-9);
  EXPECT_NEAR(r.ledger_restore, kSpotB * hours(2 * kMinute), 1e-9);
  EXPECT_NEAR(r.ledger_checkpoint, kSpotA * hours(9 * kMinute) + kSpotB * hours(10 * kMinute), 1e-9);
  EXPECT_NEAR(r.ledger_compute, kSpotA * 9.0 + kSpotB * 11.0, 1e-9);
  EXPECT_NEAR(r.ledger_lost_work, kSpotA * hours(46 * kMinute), 1e-9);
  EXPECT_NEAR(r.ledger_idle, 0.0, 1e-12);
  EXPECT_NEAR(r.ledger_rounding, 0.0, 1e-9);  // per-millisecond billing
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-9);
}

TEST(Migration, MovingWithinARegionCostsNothing) {
  PreferZoneA policy;
  const RunResult r = run(a_for_ten_hours("r-a"), job(), policy);
  EXPECT_EQ(r.migrations, 0);
  EXPECT_EQ(r.migration_hours, 0.0);
  EXPECT_EQ(r.cost_egress, 0.0);
  EXPECT_EQ(r.ledger_transfer, 0.0);
  EXPECT_DOUBLE_EQ(r.completion_hours, hours(600 * kMinute + 5 * kMinute + 2 * kMinute + 670 * kMinute));
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-9);
}

TEST(Migration, InterruptedTransferLeavesTheStateWhereItWasAndPaysEgress) {
  // b loses its spot 50 s into the first transfer (600 min + 5 min start-up + 50 s) and has it back at 700 min.
  const Millis cut = 605 * kMinute + 50 * kSecond;
  const SpotMarket market =
      two_zone_market(availability({0, 10 * kMillisPerHour}, {1, 0}), availability({0, cut, 700 * kMinute}, {1, 0, 1}));
  PreferZoneA policy;
  const RunResult r = run(market, job(), policy);
  // The state is still in r-a at 700 min: the second try transfers (and pays) again.
  const Millis second_try = 5 * kMinute + 100 * kSecond + 2 * kMinute + 660 * kMinute + 10 * kMinute;
  EXPECT_EQ(r.preemptions, 2);
  EXPECT_EQ(r.migrations, 1);
  EXPECT_DOUBLE_EQ(r.migration_hours, hours(150 * kSecond));
  EXPECT_DOUBLE_EQ(r.cost_egress, 2 * kSizeGb * kEgressPerGb);
  EXPECT_DOUBLE_EQ(r.completion_hours, hours(700 * kMinute + second_try));
  EXPECT_NEAR(r.ledger_transfer, kSpotB * hours(150 * kSecond), 1e-9);
  EXPECT_NEAR(r.ledger_startup, kSpotA * hours(5 * kMinute) + kSpotB * hours(10 * kMinute), 1e-9);
  EXPECT_NEAR(r.wait_hours, hours(700 * kMinute - cut), 1e-9);
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-9);
}

TEST(Migration, LosslessJobMovesWhatItComputed) {
  PreferZoneA policy;
  const RunResult r = run(a_for_ten_hours(), job(), policy, /*lossless=*/true);
  // 595 min of progress on a, then on b: 5 min start-up, 100 s transfer, no restore, 605 min of compute.
  EXPECT_EQ(r.migrations, 1);
  EXPECT_EQ(r.lost_work_hours, 0.0);
  EXPECT_EQ(r.restore_hours, 0.0);
  EXPECT_DOUBLE_EQ(r.cost_egress, kSizeGb * kEgressPerGb);
  EXPECT_DOUBLE_EQ(r.completion_hours, hours(600 * kMinute + 5 * kMinute + 100 * kSecond + 605 * kMinute));
  EXPECT_NEAR(r.ledger_compute, kSpotA * hours(595 * kMinute) + kSpotB * hours(605 * kMinute), 1e-9);
  EXPECT_NEAR(r.ledger_lost_work, 0.0, 1e-12);
  EXPECT_NEAR(ledger_sum(r), r.cost_total, 1e-9);
}

TEST(Migration, NothingSavedYetMeansNothingToMove) {
  // a is lost after 30 min, before the first checkpoint: the restart on b starts from scratch, with no transfer.
  const SpotMarket market = two_zone_market(availability({0, 30 * kMinute}, {1, 0}), std::nullopt);
  PreferZoneA policy;
  const RunResult r = run(market, job(), policy);
  EXPECT_EQ(r.migrations, 0);
  EXPECT_EQ(r.cost_egress, 0.0);
  EXPECT_NEAR(r.ledger_lost_work, kSpotA * hours(25 * kMinute), 1e-9);
}

TEST(Migration, HugeEgressAndAPolicyThatNeverMovesEqualsTheSingleZoneRun) {
  // a's spot comes and goes; b is never used. With an absurd egress price the run must equal the one on a
  // market that has zone a alone.
  const StepSeries a = availability({0, 3 * kMillisPerHour, 4 * kMillisPerHour, 9 * kMillisPerHour}, {1, 0, 1, 0});
  SpotMarket both = two_zone_market(a, std::nullopt);
  for (EgressPrice& price : both.migration.egress) price.usd_per_gb = 1e12;
  SpotMarket alone = both;
  alone.zones.pop_back();
  ZoneAOnly policy;
  const RunResult moved = run(both, job(), policy);
  const RunResult single = run(alone, job(), policy);
  EXPECT_EQ(moved.migrations, 0);
  EXPECT_EQ(moved.cost_egress, 0.0);
  EXPECT_EQ(moved.fingerprint, single.fingerprint);
  EXPECT_EQ(moved.events, single.events);
  EXPECT_EQ(moved.cost_total, single.cost_total);
  EXPECT_EQ(moved.completion_hours, single.completion_hours);
  EXPECT_EQ(moved.ledger_compute, single.ledger_compute);
  EXPECT_GT(moved.on_demand_hours, 0.0);  // the test does exercise a change of instance
}

// What the policy sees: the saved state's zone and the cost of moving it.
class RecordingPolicy final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    if (obs.zones[0].spot_available) return SelectionDecision::spot(0);
    data_zone = obs.data_zone;
    to_b = obs.zones[1];
    return SelectionDecision::spot(1);
  }
  int data_zone = -2;
  ZoneView to_b;
};

TEST(Migration, PoliciesSeeTheSavedStateAndTheCostOfMovingIt) {
  RecordingPolicy policy;
  run(a_for_ten_hours(), job(), policy);
  EXPECT_EQ(policy.data_zone, 0);
  EXPECT_EQ(policy.to_b.migration_time, 100 * kSecond);
  EXPECT_DOUBLE_EQ(policy.to_b.migration_cost, kSizeGb * kEgressPerGb);
}

TEST(MigrationJobFile, CheckpointSizeAndBandwidthsAreRead) {
  JobSpec spec;
  apply_job_json(nlohmann::json::parse(R"({"work_hours": 2, "checkpoint_size_gb": 50.5, "same_continent_gbps": 4,
                                           "cross_continent_gbps": 1.5})"),
                 "job.json", spec);
  EXPECT_EQ(spec.checkpoint_size_gb, 50.5);
  EXPECT_EQ(spec.same_continent_gbps, 4.0);
  EXPECT_EQ(spec.cross_continent_gbps, 1.5);
  // The override sets the transfer: 50.5 GB x 8 / 4 Gbit/s = 101 s.
  const Scenario scenario(a_for_ten_hours(), spec);
  EXPECT_EQ(scenario.migration(0, 1).transfer, 101 * kSecond);
  EXPECT_DOUBLE_EQ(scenario.migration(0, 1).egress_usd, 50.5 * kEgressPerGb);
}

TEST(MigrationJobFile, BadFieldsNameTheFileAndTheField) {
  for (const char* text :
       {R"({"checkpoint_size_gb": -1})", R"({"same_continent_gbps": 0})", R"({"cross_continent_gbps": "fast"})"}) {
    JobSpec spec;
    try {
      apply_job_json(nlohmann::json::parse(text), "job.json", spec);
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("job.json"), std::string::npos) << message;
      EXPECT_NE(message.find(nlohmann::json::parse(text).begin().key()), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace spotsim

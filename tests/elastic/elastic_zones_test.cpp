// The elastic engine across zones (docs/elastic.md#zones): a job moves when its zone cannot form a training set and
// another can, pays the saved state's transfer and egress once a set forms there, and a second zone that offers
// nothing better changes no run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "elastic_markets.hpp"
#include "engine/elastic/elastic_simulation.hpp"
#include "model/elastic_job.hpp"

namespace spotsim {
namespace {

using testing::MarketBuilder;

// Replications from the trace's start (the hand-made markets' hours are the test's arithmetic).
std::vector<RunResult> run_from_start(const SpotMarket& market, const JobSpec& job, const std::string& policy,
                                      const std::string& checkpoint, std::uint64_t count) {
  const Scenario scenario(market, job, TraceStart{false, 0});
  return run_replications(scenario, testing::node_policies(policy, checkpoint), {11, 0, count, 1});
}

// 4 instances, 2 of which can train; start-up 5 min, restore 3 min, a write 2 min, 41 GB of saved state.
JobSpec four_node_job(double work_hours) {
  JobSpec job = testing::job(work_hours, 2 * kMillisPerMinute, 3 * kMillisPerMinute, 5 * kMillisPerMinute);
  job.nodes = 4;
  job.elastic.min_nodes = 2;
  job.checkpoint_size_gb = 41.0;
  return job;
}

// Zone a (region r1) has the job's 4 instances in the first hour only, zone b (region r2) from the second hour on;
// 10-hour period. Spot $1/h, on-demand $3/h in both; egress $0.02/GB between the regions.
SpotMarket hand_over_market() {
  return MarketBuilder("hand-over")
      .exact_billing()
      .zone("a", "r1", "us")
      .on_demand(3.0)
      .spot_price(1.0)
      .notice(0)
      .hourly_counts({4, 0, 0, 0, 0, 0, 0, 0, 0, 0})
      .zone("b", "r2", "us")
      .on_demand(3.0)
      .spot_price(1.0)
      .notice(0)
      .hourly_counts({0, 4, 4, 4, 4, 4, 4, 4, 4, 4})
      .egress("r1", "r2", 0.02)
      .egress("r2", "r1", 0.02)
      .build();
}

struct Recorder final : EventObserver {
  std::vector<TimelineEvent> events;
  void on_event(const TimelineEvent& e) override { events.push_back(e); }
};

TEST(ElasticZones, AJobWhoseZoneRunsDryMovesAndPaysTheTransferAndTheEgress) {
  const SpotMarket market = hand_over_market();
  const JobSpec job = four_node_job(2.0);
  Scenario scenario(market, job, TraceStart{false, 0});
  const Millis transfer = scenario.migration(0, 1).transfer;  // 41 GB at the trace's same-continent bandwidth
  ASSERT_GT(transfer, 30 * kMillisPerSecond);
  ASSERT_LT(transfer, 60 * kMillisPerSecond);
  const PolicyRegistry registry = builtin_policy_registry();
  auto policy = registry.node_factory("spot-nodes")();
  auto checkpoint = registry.checkpoint_factory("fixed:interval=20m")();
  ElasticSimulation engine(scenario, *policy, *checkpoint);
  Recorder recorder;
  engine.set_observer(&recorder);
  const RunResult r = engine.run(1, 0);
  // In a from 0: up at 5 min, writes at 25-27 and 47-49 min (40 min saved), the pool empties at 60 min with 51 min
  // done. In b from 60 min: up at 65 min, the transfer, a 3-min restore, then 80 min of work with 3 writes.
  const Millis end = 65 * kMillisPerMinute + transfer + 3 * kMillisPerMinute + 86 * kMillisPerMinute;
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.completion_hours, to_hours(end));
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.migrations, 1);
  EXPECT_EQ(r.migration_hours, to_hours(transfer));
  EXPECT_DOUBLE_EQ(r.lost_work_hours, 11.0 / 60.0);
  EXPECT_EQ(r.checkpoints, 5);
  EXPECT_DOUBLE_EQ(r.cost_egress, 41.0 * 0.02);
  EXPECT_NEAR(r.cost_spot, 4 * 1.0 + 4 * to_hours(end - kMillisPerHour), 1e-9);
  EXPECT_NEAR(r.ledger_transfer, 4 * to_hours(transfer), 1e-9);
  EXPECT_NEAR(testing::ledger_sum(r), r.cost_total, 1e-9);
  // The timeline names the zones: instances launched in a (0) then in b (1), and the state's arrival in b.
  int launched_in_b = 0, arrived_in_b = 0;
  for (const TimelineEvent& e : recorder.events) {
    if (e.kind == TimelineEventKind::kInstanceAcquired) {
      EXPECT_EQ(e.zone, e.time < kMillisPerHour ? 0 : 1);
      launched_in_b += e.zone == 1;
    }
    if (e.kind == TimelineEventKind::kTransferDone) arrived_in_b += e.zone == 1;
  }
  EXPECT_EQ(launched_in_b, 1);
  EXPECT_EQ(arrived_in_b, 1);
}

TEST(ElasticZones, AMoveWithinARegionTransfersNothing) {
  SpotMarket market = hand_over_market();
  market.zones[1].region = "r1";
  const RunResult r = run_from_start(market, four_node_job(2.0), "spot-nodes", "fixed:interval=20m", 1).front();
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.migrations, 0);
  EXPECT_EQ(r.migration_hours, 0.0);
  EXPECT_EQ(r.cost_egress, 0.0);
  EXPECT_EQ(r.spot_starts, 2);  // in a, then in b
  EXPECT_EQ(r.preemptions, 1);
}

TEST(ElasticZones, AZoneThatOffersNothingBetterChangesNoRun) {
  // The pool markets of the single-zone tests, with a copy of the zone beside them (in another region, so that a
  // move would cost): the job never moves, and every run is the single-zone run.
  JobSpec job = four_node_job(20.0);
  job.nodes = 8;
  job.elastic.step_time_s_by_nodes = {1.0, 1.03, 1.05, 1.07, 1.08, 1.09, 1.10, 1.11};
  job.deadline = millis_from_hours(26.0);
  for (unsigned seed : {3u, 4u}) {
    const SpotMarket one = testing::pool_market(12, 10 * kMillisPerMinute, 3000, seed);
    SpotMarket two = one;
    two.zones.push_back(two.zones[0]);
    two.zones[0].region = "r1";
    two.zones[1].name = "copy";
    two.zones[1].region = "r2";
    two.migration.egress = {{"r1", "r2", 0.05}, {"r2", "r1", 0.05}};
    for (int min_nodes : {8, 4, 1}) {
      job.elastic.min_nodes = min_nodes;
      for (const char* policy : {"spot-nodes", "deadline-nodes", "on-demand-nodes"}) {
        const std::vector<RunResult> single = testing::run_elastic(one, job, policy, "young-daly", 30);
        const std::vector<RunResult> paired = testing::run_elastic(two, job, policy, "young-daly", 30);
        for (std::size_t i = 0; i < single.size(); ++i) {
          SCOPED_TRACE(std::string(policy) + " min " + std::to_string(min_nodes) + " run " + std::to_string(i));
          EXPECT_EQ(paired[i].migrations, 0);
          EXPECT_EQ(paired[i].completion_hours, single[i].completion_hours);
          EXPECT_EQ(paired[i].cost_total, single[i].cost_total);
          EXPECT_EQ(paired[i].preemptions, single[i].preemptions);
          EXPECT_EQ(paired[i].reconfigurations, single[i].reconfigurations);
          EXPECT_EQ(paired[i].deadline_met, single[i].deadline_met);
        }
      }
    }
  }
}

TEST(ElasticZones, OnDemandNodesStartInTheCheapestZoneAndStayThere) {
  SpotMarket market = hand_over_market();
  market.zones[1].on_demand_price_per_hour = 2.0;
  const RunResult r = run_from_start(market, four_node_job(2.0), "on-demand-nodes", "fixed:interval=20m", 1).front();
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.migrations, 0);
  EXPECT_NEAR(r.cost_on_demand, 4 * 2.0 * r.completion_hours, 1e-9);
}

TEST(ElasticZones, DeadlineNodesMovesOnlyWhileTheTransferFitsItsSlack) {
  // The state needs 2 h to reach b (90 GB at 0.1 Gbit/s): with a deadline the move cannot afford, the job leaves
  // spot for on-demand in a when the pool empties; with a loose one it moves.
  JobSpec job = four_node_job(3.0);
  job.checkpoint_size_gb = 90.0;
  job.same_continent_gbps = 0.1;
  const SpotMarket market = hand_over_market();
  job.deadline = millis_from_hours(4.5);
  const RunResult tight = run_from_start(market, job, "deadline-nodes", "fixed:interval=20m", 1).front();
  EXPECT_TRUE(tight.deadline_met);
  EXPECT_EQ(tight.migrations, 0);
  EXPECT_GT(tight.on_demand_node_hours, 0.0);
  job.deadline = millis_from_hours(12.0);
  const RunResult loose = run_from_start(market, job, "deadline-nodes", "fixed:interval=20m", 1).front();
  EXPECT_TRUE(loose.deadline_met);
  EXPECT_EQ(loose.migrations, 1);
  EXPECT_EQ(loose.on_demand_node_hours, 0.0);
}

}  // namespace
}  // namespace spotsim

// Campaigns of elastic jobs (min_nodes, docs/elastic.md): the elastic engine driven through the campaign's stepping
// interface. A campaign of one elastic job is `simulate` of that job, run for run; on a counted pool several elastic
// jobs never hold more than the count, the campaign taking only as many instances as the drop needs; a job that
// the row's kind of policy cannot run is refused with its name.
#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "model/scenario.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::counted_market;
using testing::shipped_trace;

PolicyFactories node_factories(const std::string& nodes, const std::string& checkpoint) {
  static const PolicyRegistry registry = builtin_policy_registry();
  PolicyFactories out;
  out.nodes = registry.node_factory(nodes);
  out.checkpoint = registry.checkpoint_factory(checkpoint);
  return out;
}

CampaignJob elastic_job(double work_hours, int nodes, int min_nodes, double arrival_hours = 0.0) {
  CampaignJob job = campaign_job(work_hours, arrival_hours, nodes);
  job.job.elastic.min_nodes = min_nodes;
  return job;
}

struct Case {
  std::string trace, policy;
  int nodes, min_nodes;
  double deadline_hours;  // 0 = none
};

class OneJobElasticCampaign : public ::testing::TestWithParam<Case> {};

TEST_P(OneJobElasticCampaign, EqualsSimulateRunForRun) {
  const Case c = GetParam();
  const SpotMarket market = shipped_trace(c.trace);
  CampaignSpec spec;
  spec.jobs.push_back(elastic_job(24.0, c.nodes, c.min_nodes));
  if (c.deadline_hours > 0) spec.jobs[0].job.deadline = millis_from_hours(c.deadline_hours);
  const PolicyFactories policies = node_factories(c.policy, "young-daly");
  const ReplicationPlan plan{5, 0, 100, 2};
  const Scenario scenario(market, spec.jobs[0].job);
  const auto alone = run_replications(scenario, policies, plan);
  const auto campaign = run_campaign(market, spec, policies, plan);
  ASSERT_EQ(alone.size(), campaign.size());
  int preempted = 0;
  for (std::size_t r = 0; r < alone.size(); ++r) {
    testing::expect_same_run(campaign[r].job_runs[0], alone[r], "replication " + std::to_string(r));
    EXPECT_EQ(campaign[r].cost_total, alone[r].cost_total);
    preempted += alone[r].preemptions > 0;
  }
  EXPECT_GT(preempted, 0) << "the case should exercise preemptions";
}

INSTANTIATE_TEST_SUITE_P(Traces, OneJobElasticCampaign,
                         ::testing::Values(Case{"aws-p3-bamboo-32-node.json", "spot-nodes", 8, 4, 0.0},
                                           Case{"aws-p3-bamboo-32-node.json", "deadline-nodes", 8, 2, 40.0},
                                           Case{"aws-p3-parcae-32-node.json", "spot-nodes", 16, 8, 0.0},
                                           // 13 zones in 5 regions: the job moves between them
                                           Case{"gcp-h100-capacity-13-zones.json", "deadline-nodes", 8, 4, 60.0},
                                           Case{"gcp-h100-capacity-13-zones.json", "spot-nodes", 4, 2, 0.0}),
                         [](const auto& param_info) { return "case" + std::to_string(param_info.index); });

// The count falls from 6 to 2 for an hour every 6 hours; three elastic jobs of 3 instances (any 1 trains) never
// hold more than the count, and the campaign's excess rule takes single instances (never more than a drop needs).
TEST(ElasticCampaign, NeverHoldsMoreThanTheCount) {
  const SpotMarket market = counted_market({6, 6, 6, 2, 6, 6});
  CampaignSpec spec;
  for (int j = 0; j < 3; ++j) spec.jobs.push_back(elastic_job(10.0 + j, 3, 1, 0.5 * j));
  for (const ReclaimRule rule : {ReclaimRule::kRandom, ReclaimRule::kNewestFirst}) {
    spec.reclaim = rule;
    const auto runs = run_campaign(market, spec, node_factories("spot-nodes", "young-daly"),
                                   ReplicationPlan{4, 0, 40, 2}, TraceStart{false, 0});
    const int reclaims = testing::expect_within_the_count(runs, 3);
    EXPECT_GT(reclaims, 0) << reclaim_rule_name(rule) << ": the excess rule should be exercised";
    for (const CampaignRun& run : runs) {
      // The campaign's reclaims took instances, not whole jobs: a job that kept at least one trained on.
      int nodes_lost = 0;
      for (const RunResult& job : run.job_runs) nodes_lost += job.nodes_lost;
      EXPECT_GE(nodes_lost, run.capacity_reclaims);
    }
  }
}

// Two elastic jobs of 4 instances on a pool of 4 that never drops: the first takes all four, the second waits
// until they are given back, then takes them; the thread count changes nothing.
TEST(ElasticCampaign, TheSecondJobWaitsForTheFirstsInstances) {
  const SpotMarket market = counted_market({4.0});
  CampaignSpec spec;
  spec.jobs.push_back(elastic_job(6.0, 4, 2));
  spec.jobs.push_back(elastic_job(6.0, 4, 2));
  const auto one = run_campaign(market, spec, node_factories("spot-nodes", "none"), ReplicationPlan{1, 0, 4, 1},
                                TraceStart{false, 0});
  const auto two = run_campaign(market, spec, node_factories("spot-nodes", "none"), ReplicationPlan{1, 0, 4, 2},
                                TraceStart{false, 0});
  for (std::size_t r = 0; r < one.size(); ++r) {
    const CampaignRun& run = one[r];
    ASSERT_EQ(run.completed, 2);
    EXPECT_GE(run.jobs[1].finish_hours, 2 * run.jobs[0].finish_hours - 1e-9);  // it started when the first ended
    EXPECT_EQ(run.job_runs[0].preemptions, 0);
    EXPECT_NEAR(run.capacity_utilisation(), 1.0, 0.02);  // four held nearly all the time (gaps: start-ups only)
    EXPECT_EQ(run.cost_total, two[r].cost_total);
  }
}

// Two zones whose counts of 4 empty in turn (zone a in the third hour of every 4, zone b in the first): three
// elastic jobs of 4 instances move between them, and the zones' counts together are never exceeded.
TEST(ElasticCampaign, JobsMoveBetweenZonesWithinTheirCounts) {
  const SpotMarket market = testing::MarketBuilder("two-zones")
                                .zone("a", "r1")
                                .on_demand(3.0)
                                .spot_price(1.0)
                                .hourly_counts({4, 4, 0, 4})
                                .zone("b", "r1")
                                .on_demand(3.0)
                                .spot_price(1.0)
                                .hourly_counts({0, 4, 4, 4})
                                .tick(kMillisPerHour)
                                .build();
  CampaignSpec spec;
  for (int j = 0; j < 3; ++j) spec.jobs.push_back(elastic_job(6.0 + j, 4, 2, 0.25 * j));
  const auto runs = run_campaign(market, spec, node_factories("spot-nodes", "young-daly"), ReplicationPlan{4, 0, 20, 2},
                                 TraceStart{false, 0});
  testing::expect_within_the_count(runs, 3);
  int moved = 0;
  for (const CampaignRun& run : runs) {
    for (const RunResult& job : run.job_runs) moved += job.spot_starts > 1;
  }
  EXPECT_GT(moved, 0) << "jobs should have started spot again in the other zone";
}

TEST(ElasticCampaign, AJobTheRowsPolicyCannotRunIsRefusedByName) {
  const SpotMarket market = counted_market({4.0});
  CampaignSpec spec;
  spec.jobs.push_back(elastic_job(2.0, 2, 1));
  spec.jobs.push_back(campaign_job(2.0));
  spec.jobs[1].name = "rigid";
  try {
    run_campaign(market, spec, node_factories("spot-nodes", "none"), ReplicationPlan{1, 0, 1, 1});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("job 2 'rigid'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("min_nodes"), std::string::npos) << e.what();
  }
  spec.jobs.pop_back();
  spec.early_stopping = successive_halving(3.0, 1.0 / 9.0);
  EXPECT_THROW(validate_campaign(spec, "campaign"), InputError);
}

}  // namespace
}  // namespace spotsim

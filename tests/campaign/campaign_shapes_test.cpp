// Traces of several instance shapes (docs/campaign.md#instance-types): a job limited to the zones of its shape shares
// their capacity with the other jobs there and with no one else; its own zone numbers map to the campaign's
// (engine/campaign/zone_mapped_capacity.hpp); the identity map changes nothing; and which zones a job gets.
#include <gtest/gtest.h>

#include "app/campaign/campaign_options.hpp"
#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::factories;
using testing::kStartupHours;
using testing::MarketBuilder;

// Zone 0: eight 1-GPU instances at $1/h spot ($3 on demand); zone 1: one 8-GPU instance at $8/h ($24); never
// preempted.
SpotMarket two_shapes() {
  SpotMarket m = MarketBuilder("two-shapes")
                     .zone("z-1g")
                     .on_demand(3.0)
                     .spot_price(1.0)
                     .hourly_counts({8.0})
                     .gpus(1, "H100")
                     .zone("z-8g")
                     .on_demand(24.0)
                     .spot_price(8.0)
                     .hourly_counts({1.0})
                     .gpus(8, "H100")
                     .tick(kMillisPerHour)
                     .build();
  m.zones[0].instance_type = "t-1g";
  m.zones[1].instance_type = "t-8g";
  return m;
}

CampaignRun run_shapes_once(const SpotMarket& market, const CampaignSpec& spec) {
  return run_campaign(market, spec, factories("spot-only", "none"), ReplicationPlan{1, 0, 1, 1},
                      TraceStart{false, 0})[0];
}

TEST(CampaignShapes, JobsShareOnlyTheCapacityOfTheirOwnShape) {
  const SpotMarket market = two_shapes();
  CampaignSpec spec;
  for (int j = 0; j < 2; ++j) {  // two 8-GPU jobs on the one 8-GPU instance: the second waits
    spec.jobs.push_back(campaign_job(3.0));
    spec.jobs.back().zones = {1};
  }
  spec.jobs.push_back(campaign_job(3.0, 0.0, 8));  // eight 1-GPU instances: runs at once, beside the first
  spec.jobs.back().zones = {0};
  const CampaignRun run = run_shapes_once(market, spec);
  ASSERT_EQ(run.completed, 3);
  const double one = kStartupHours + 3.0;
  EXPECT_NEAR(run.jobs[0].finish_hours, one, 1e-9);
  EXPECT_NEAR(run.jobs[1].finish_hours, 2 * one, 1e-9) << "waits for the 8-GPU instance";
  EXPECT_NEAR(run.jobs[2].finish_hours, one, 1e-9) << "the 1-GPU zone is not the 8-GPU one";
  EXPECT_NEAR(run.jobs[0].cost, 8.0 * one, 1e-6);
  EXPECT_NEAR(run.jobs[2].cost, 8 * 1.0 * one, 1e-6);
  for (std::size_t h = 0; h < run.held_by_hour.size(); ++h) {
    EXPECT_LE(run.held_by_hour[h], run.capacity_by_hour[h] + 1e-9);
  }
}

TEST(CampaignShapes, TheIdentityMapChangesNothing) {
  const SpotMarket market = MarketBuilder("pool")
                                .zone("a")
                                .on_demand(3.0)
                                .spot_price(1.0)
                                .hourly_counts({2.0, 1.0, 0.0, 2.0})
                                .zone("b")
                                .on_demand(3.0)
                                .spot_price(1.2)
                                .hourly_counts({1.0, 0.0, 1.0, 1.0})
                                .tick(kMillisPerHour)
                                .build();
  CampaignSpec plain;
  for (int j = 0; j < 5; ++j) plain.jobs.push_back(campaign_job(2.0 + j, 0.5 * j));
  CampaignSpec mapped = plain;
  for (CampaignJob& job : mapped.jobs) job.zones = {0, 1};
  const auto a = run_campaign(market, plain, factories("greedy", "none"), ReplicationPlan{3, 0, 4, 1}, TraceStart{});
  const auto b = run_campaign(market, mapped, factories("greedy", "none"), ReplicationPlan{3, 0, 4, 1}, TraceStart{});
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t r = 0; r < a.size(); ++r) {
    EXPECT_EQ(a[r].makespan_hours, b[r].makespan_hours);
    EXPECT_EQ(a[r].cost_total, b[r].cost_total);
    ASSERT_EQ(a[r].job_runs.size(), b[r].job_runs.size());
    for (std::size_t j = 0; j < a[r].job_runs.size(); ++j) {
      testing::expect_same_run(a[r].job_runs[j], b[r].job_runs[j], "replication " + std::to_string(r));
    }
  }
}

TEST(CampaignShapes, EachJobGetsTheZonesOfItsShape) {
  const SpotMarket market = two_shapes();
  const auto resolved = [&](CampaignJob job) {
    std::vector<CampaignJob> jobs{std::move(job)};
    resolve_campaign_jobs(jobs, market, 1);
    return jobs.front();
  };
  CampaignJob eight = campaign_job(3.0, 0.0, 0);
  eight.job.gpus = 8;  // 8 x $3 = one $24 instance: the tie goes to fewer instances
  EXPECT_EQ(resolved(eight).zones, std::vector<int>{1});
  EXPECT_EQ(resolved(eight).job.nodes, 1);
  CampaignJob two = eight;
  two.job.gpus = 2;  // two 1-GPU instances ($6/h) rather than one 8-GPU ($24/h)
  EXPECT_EQ(resolved(two).zones, std::vector<int>{0});
  EXPECT_EQ(resolved(two).job.nodes, 2);
  CampaignJob named = two;
  named.instance_type = "t-8g";
  EXPECT_EQ(resolved(named).zones, std::vector<int>{1}) << "the named type wins";
  EXPECT_EQ(resolved(named).job.nodes, 1);
  named.instance_type = "t-4g";
  EXPECT_THROW(resolved(named), InputError);
  CampaignJob in_nodes = campaign_job(3.0, 0.0, 2);
  EXPECT_THROW(resolved(in_nodes), InputError) << "instances of which shape?";
  in_nodes.instance_type = "t-1g";
  EXPECT_EQ(resolved(in_nodes).zones, std::vector<int>{0});
  // A trace of one shape: every zone, as before.
  SpotMarket one = market;
  one.zones.resize(1);
  std::vector<CampaignJob> jobs{two};
  resolve_campaign_jobs(jobs, one, 1);
  EXPECT_TRUE(jobs.front().zones.empty());
}

}  // namespace
}  // namespace spotsim

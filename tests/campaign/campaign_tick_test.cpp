// Campaigns in the Can't Be Late mode: every job in the tick engine (engine/tick_simulation.hpp) driven through
// the campaign's stepping interface. A campaign of one job is `simulate --mode cant-be-late` of that job, run for
// run; on a counted pool the jobs wait for each other tick by tick, never hold more than the count, and a budget
// stops them on the tick where the spend (each tick paid in full when it starts) reaches it. Worked by hand below.
#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "model/scenario.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::counted_market;
using testing::factories;
using testing::shipped_trace;

CampaignSpec tick_campaign() {
  CampaignSpec spec;
  spec.cant_be_late_mode = true;
  return spec;
}

struct Case {
  std::string trace, selection;
  double work_hours, deadline_hours;
};

class OneJobTickCampaign : public ::testing::TestWithParam<Case> {};

TEST_P(OneJobTickCampaign, EqualsSimulateInTheCantBeLateModeRunForRun) {
  const Case c = GetParam();
  const SpotMarket market = shipped_trace(c.trace);
  CampaignSpec spec = tick_campaign();
  spec.jobs.push_back(campaign_job(c.work_hours));
  spec.jobs[0].job.deadline = millis_from_hours(c.deadline_hours);
  spec.jobs[0].job.startup = 12 * kMillisPerMinute;  // the paper's changeover d = 0.2 h
  const PolicyFactories policies = factories(c.selection, "continuous");
  const ReplicationPlan plan{11, 0, 120, 2};
  Scenario scenario(market, spec.jobs[0].job);
  scenario.use_cant_be_late_mode();
  const auto alone = run_replications(scenario, policies, plan);
  const auto campaign = run_campaign(market, spec, policies, plan);
  ASSERT_EQ(alone.size(), campaign.size());
  int preempted = 0;
  for (std::size_t r = 0; r < alone.size(); ++r) {
    SCOPED_TRACE("replication " + std::to_string(r));
    const RunResult& a = alone[r];
    testing::expect_same_run(a, campaign[r].job_runs[0], "the job's run");
    EXPECT_EQ(campaign[r].cost_total, a.cost_total);
    preempted += a.preemptions > 0;
  }
  EXPECT_GT(preempted, 0) << "the case should exercise preemptions";
}

INSTANTIATE_TEST_SUITE_P(Traces, OneJobTickCampaign,
                         ::testing::Values(Case{"aws-us-west-2-v100.json", "greedy", 48.0, 52.0},
                                           Case{"aws-us-west-2-v100.json", "uniform-progress", 48.0, 70.0},
                                           Case{"aws-us-west-2-k80.json", "greedy", 24.0, 30.0},
                                           Case{"gcp-h100-capacity-13-zones.json", "greedy", 24.0, 36.0}),
                         [](const auto& param_info) { return "case" + std::to_string(param_info.index); });

// Two spot instances on hourly ticks, four 1-instance jobs of 3 h (start-up 5 min): two run ticks 0-3 (the last
// tick paid in full, the work done at 3 h 05 min), the two others find no room until the first two give theirs
// back at the 4 h boundary, and finish at 7 h 05 min. Each job pays four $1 ticks.
TEST(TickCampaign, JobsWaitForRoomTickByTick) {
  const SpotMarket market = counted_market({2.0});
  CampaignSpec spec = tick_campaign();
  for (int j = 0; j < 4; ++j) spec.jobs.push_back(campaign_job(3.0));
  const CampaignRun run = run_campaign(market, spec, factories("spot-only", "continuous"), ReplicationPlan{1, 0, 1, 1},
                                       TraceStart{false, 0})[0];
  ASSERT_EQ(run.completed, 4);
  const double first = 3.0 + 5.0 / 60.0;
  EXPECT_NEAR(run.jobs[0].finish_hours, first, 1e-9);
  EXPECT_NEAR(run.jobs[1].finish_hours, first, 1e-9);
  EXPECT_NEAR(run.jobs[2].finish_hours, 4.0 + first, 1e-9);
  EXPECT_NEAR(run.jobs[3].finish_hours, 4.0 + first, 1e-9);
  EXPECT_DOUBLE_EQ(run.cost_spot, 16.0);
  for (std::size_t h = 0; h < run.held_by_hour.size(); ++h)
    EXPECT_LE(run.held_by_hour[h], run.capacity_by_hour[h] + 1e-9);
}

// The count falls from 4 to 1 for an hour every 6 hours: tick jobs never hold more than the count either, the
// campaign's reclaims taking the excess on the boundary of the drop.
TEST(TickCampaign, NeverHoldsMoreThanTheCount) {
  const SpotMarket market = counted_market({4, 4, 4, 1, 4, 4});
  CampaignSpec spec = tick_campaign();
  for (int j = 0; j < 6; ++j) spec.jobs.push_back(campaign_job(8.0 + j));
  for (const ReclaimRule rule : {ReclaimRule::kRandom, ReclaimRule::kNewestFirst}) {
    spec.reclaim = rule;
    const auto runs = run_campaign(market, spec, factories("spot-only", "continuous"), ReplicationPlan{2, 0, 30, 2},
                                   TraceStart{false, 0});
    const int reclaims = testing::expect_within_the_count(runs, 6);
    EXPECT_GT(reclaims, 0) << reclaim_rule_name(rule) << ": the excess rule should be exercised";
  }
}

// Three on-demand jobs at $3 per hourly tick: after four ticks $36 is paid and the fifth tick's $9 is due when it
// starts, so a $45 budget stops them all at the 4 h boundary with exactly $45 spent; a job arriving at 8 h never
// starts.
TEST(TickCampaign, BudgetStopsOnTheTickThatReachesIt) {
  const SpotMarket market = counted_market({1.0});
  CampaignSpec spec = tick_campaign();
  for (int j = 0; j < 3; ++j) spec.jobs.push_back(campaign_job(10.0));
  spec.jobs.push_back(campaign_job(1.0, 8.0));
  spec.budget_usd = 45.0;
  const CampaignRun run = run_campaign(market, spec, factories("on-demand", "continuous"), ReplicationPlan{1, 0, 1, 1},
                                       TraceStart{false, 0})[0];
  EXPECT_TRUE(run.budget_exhausted);
  EXPECT_EQ(run.completed, 0);
  EXPECT_EQ(run.failed, 4);
  EXPECT_DOUBLE_EQ(run.cost_total, 45.0);
  EXPECT_DOUBLE_EQ(run.makespan_hours, 4.0);
}

// Early stopping on tick jobs: keeping every trial changes nothing, run for run.
TEST(TickCampaign, HalvingThatKeepsEveryTrialChangesNothing) {
  const SpotMarket market = shipped_trace("aws-us-west-2-v100.json");
  CampaignSpec spec = tick_campaign();
  for (int j = 0; j < 4; ++j) spec.jobs.push_back(campaign_job(6.0 + j, 0.5 * j));
  const PolicyFactories policies = factories("greedy", "continuous");
  const ReplicationPlan plan{3, 0, 40, 2};
  const auto plain = run_campaign(market, spec, policies, plan);
  spec.early_stopping = successive_halving(3.0, 1.0 / 9.0);
  spec.early_stopping.keep_fraction = 1.0;
  const auto halving = run_campaign(market, spec, policies, plan);
  for (std::size_t r = 0; r < plain.size(); ++r) {
    EXPECT_EQ(plain[r].cost_total, halving[r].cost_total);
    EXPECT_EQ(plain[r].makespan_hours, halving[r].makespan_hours);
    for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
      EXPECT_EQ(plain[r].job_runs[j].fingerprint, halving[r].job_runs[j].fingerprint);
    }
  }
}

TEST(TickCampaign, ATickOutsideTheModeIsRefused) {
  CampaignSpec spec;
  spec.jobs.push_back(campaign_job(1.0));
  spec.tick = kMillisPerHour;
  EXPECT_THROW(validate_campaign(spec, "campaign"), InputError);
  spec.cant_be_late_mode = true;
  EXPECT_NO_THROW(validate_campaign(spec, "campaign"));
}

}  // namespace
}  // namespace spotsim

// Limited capacity, scheduling order, early stopping that stops, the budget cap and refusals, each against a
// result worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::counted_market;
using testing::factories;
using testing::kStartupHours;

CampaignRun run_once(const SpotMarket& market, const CampaignSpec& spec, const std::string& selection = "spot-only",
                     const std::string& checkpoint = "none", std::uint64_t seed = 1) {
  return run_campaign(market, spec, factories(selection, checkpoint), ReplicationPlan{seed, 0, 1, 1},
                      TraceStart{false, 0})[0];
}

// Two spot instances, never reclaimed; four 1-instance jobs of 3 h on spot-only: two run, two wait for them to
// release, in scheduling order.
TEST(Capacity, JobsWaitForCapacityInFifoOrder) {
  const SpotMarket market = counted_market({2.0});
  CampaignSpec spec;
  for (int j = 0; j < 4; ++j) spec.jobs.push_back(campaign_job(3.0));
  const CampaignRun run = run_once(market, spec);
  ASSERT_EQ(run.completed, 4);
  const double first = kStartupHours + 3.0;
  EXPECT_NEAR(run.jobs[0].finish_hours, first, 1e-9);
  EXPECT_NEAR(run.jobs[1].finish_hours, first, 1e-9);
  EXPECT_NEAR(run.jobs[2].finish_hours, 2 * first, 1e-9);
  EXPECT_NEAR(run.jobs[3].finish_hours, 2 * first, 1e-9);
  EXPECT_NEAR(run.makespan_hours, 2 * first, 1e-9);
  EXPECT_NEAR(run.cost_spot, 4 * first * 1.0, 1e-6);   // $1/h, billed per second
  EXPECT_NEAR(run.capacity_utilisation(), 1.0, 1e-9);  // two held throughout of two obtainable
  for (std::size_t h = 0; h < run.held_by_hour.size(); ++h)
    EXPECT_LE(run.held_by_hour[h], run.capacity_by_hour[h] + 1e-9);
}

TEST(Capacity, PriorityDecidesWhoWaits) {
  const SpotMarket market = counted_market({1.0});
  CampaignSpec spec;
  for (int j = 0; j < 3; ++j) spec.jobs.push_back(campaign_job(2.0));
  spec.jobs[2].priority = 5;
  spec.jobs[1].priority = 1;
  spec.scheduling = SchedulingRule::kPriority;
  const CampaignRun run = run_once(market, spec);
  const double one = kStartupHours + 2.0;
  EXPECT_NEAR(run.jobs[2].finish_hours, one, 1e-9);
  EXPECT_NEAR(run.jobs[1].finish_hours, 2 * one, 1e-9);
  EXPECT_NEAR(run.jobs[0].finish_hours, 3 * one, 1e-9);
  spec.scheduling = SchedulingRule::kShortestFirst;
  spec.jobs[0].job.work = millis_from_hours(1.0);
  const CampaignRun shortest = run_once(market, spec);
  EXPECT_NEAR(shortest.jobs[0].finish_hours, kStartupHours + 1.0, 1e-9);
}

// The count falls from 4 to 1 for an hour every 6 hours: the campaign never holds more than the count, whichever
// rule takes the excess.
TEST(Capacity, NeverHoldsMoreThanTheCount) {
  const SpotMarket market = counted_market({4, 4, 4, 1, 4, 4});
  CampaignSpec spec;
  for (int j = 0; j < 6; ++j) spec.jobs.push_back(campaign_job(8.0 + j));
  for (const ReclaimRule rule : {ReclaimRule::kRandom, ReclaimRule::kNewestFirst}) {
    spec.reclaim = rule;
    const auto runs = run_campaign(market, spec, factories("spot-only", "young-daly"), ReplicationPlan{2, 0, 50, 2},
                                   TraceStart{false, 0});
    const int reclaims = testing::expect_within_the_count(runs, 6);
    EXPECT_GT(reclaims, 0) << reclaim_rule_name(rule) << ": the excess rule should be exercised";
  }
}

// Newest first: two jobs hold the zone's two instances, the second acquired an hour later; the count falls to 1
// with 0 notice. Each job's own draw takes it with probability 1/2; when neither does, the newer one goes.
TEST(Capacity, NewestFirstTakesTheLaterInstance) {
  const SpotMarket market = counted_market({2, 2, 2, 1, 1, 1, 1, 1, 1, 1}, 0);
  CampaignSpec spec;
  spec.jobs.push_back(campaign_job(6.0, 0.0));
  spec.jobs.push_back(campaign_job(6.0, 1.0));
  spec.reclaim = ReclaimRule::kNewestFirst;
  int both_held = 0;
  const auto runs =
      run_campaign(market, spec, factories("spot-only", "none"), ReplicationPlan{9, 0, 200, 1}, TraceStart{false, 0});
  for (const CampaignRun& run : runs) {
    if (run.capacity_reclaims == 0) continue;
    ++both_held;
    EXPECT_EQ(run.capacity_reclaims, 1);
    EXPECT_EQ(run.job_runs[1].preemptions, 1);  // the later acquisition
  }
  EXPECT_GT(both_held, 20);  // about a quarter of 200
}

// Six trials arriving together, identical but for their scores, on-demand (no capacity limit), rungs at 1/9 and
// 1/3 of the work, keeping the best third. They reach a rung at the same instant, in FIFO order.
TEST(EarlyStopping, AsynchronousHalvingByHand) {
  SpotMarket market = counted_market({1.0});
  CampaignSpec spec;
  for (int j = 0; j < 6; ++j) spec.jobs.push_back(campaign_job(9.0));
  spec.early_stopping = successive_halving(3.0, 1.0 / 9.0);
  // Worst first: each trial to reach a rung is the best so far, so every one goes on.
  for (int j = 0; j < 6; ++j) spec.jobs[static_cast<std::size_t>(j)].score = j;
  CampaignRun run = run_once(market, spec, "on-demand");
  EXPECT_EQ(run.completed, 6);
  // Best first: at rung 1 trial 0 goes on (1 of 1); trial 1 is 2nd of 2 and ceil(2/3) = 1 goes on: stopped; and so
  // on (ceil(m/3) < rank for m = 2..6). Only trial 0 finishes; the others stop after 1 h of compute.
  for (int j = 0; j < 6; ++j) spec.jobs[static_cast<std::size_t>(j)].score = -j;
  run = run_once(market, spec, "on-demand");
  EXPECT_EQ(run.completed, 1);
  EXPECT_EQ(run.stopped_early, 5);
  EXPECT_EQ(run.jobs[0].status, JobStatus::kCompleted);
  for (int j = 1; j < 6; ++j) {
    EXPECT_EQ(run.jobs[static_cast<std::size_t>(j)].status, JobStatus::kStoppedEarly);
    EXPECT_NEAR(run.jobs[static_cast<std::size_t>(j)].finish_hours, kStartupHours + 1.0, 1e-9);
    EXPECT_NEAR(run.job_runs[static_cast<std::size_t>(j)].work_done_hours, 1.0, 1e-9);
  }
  // On-demand at $3/h, billed per second: 1 trial for 9 h and 5 for 1 h, each with its start-up.
  EXPECT_NEAR(run.cost_on_demand, 3.0 * ((9.0 + kStartupHours) + 5 * (1.0 + kStartupHours)), 1e-6);
  EXPECT_TRUE(run.all_done);
}

// Three jobs on on-demand at $3/h each burn $9/h: a $45 budget stops them all after 5 h.
TEST(Budget, StopsEveryJobWhenTheSpendReachesTheCap) {
  const SpotMarket market = counted_market({1.0});
  CampaignSpec spec;
  for (int j = 0; j < 3; ++j) spec.jobs.push_back(campaign_job(10.0));
  spec.jobs.push_back(campaign_job(1.0, 8.0));  // arrives after the money is gone: never starts
  spec.budget_usd = 45.0;
  const CampaignRun run = run_once(market, spec, "on-demand");
  EXPECT_TRUE(run.budget_exhausted);
  EXPECT_EQ(run.completed, 0);
  EXPECT_EQ(run.failed, 4);
  EXPECT_NEAR(run.cost_total, 45.0, 3 * 3.0 / 3600.0);  // to a second of billing per instance
  EXPECT_NEAR(run.makespan_hours, 5.0, 1e-6);
  EXPECT_EQ(run.job_runs[3].cost_total, 0.0);
}

// Spot at $1/h for 2 h, then $5/h: two spot jobs spend $4 by 2 h, then $10/h, so a $9 budget runs out at 2.5 h
// (predicting from the first rate alone would have stopped them at 4.5 h, $29 spent).
TEST(Budget, FollowsASpotPriceThatChanges) {
  SpotMarket market = counted_market({10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0});
  market.zones[0].spot.price_per_hour = StepSeries({0, 2 * kMillisPerHour}, {1.0, 5.0}, 8 * kMillisPerHour);
  CampaignSpec spec;
  for (int j = 0; j < 2; ++j) spec.jobs.push_back(campaign_job(6.0));
  spec.budget_usd = 9.0;
  const CampaignRun run = run_once(market, spec, "spot-only");
  EXPECT_TRUE(run.budget_exhausted);
  EXPECT_NEAR(run.makespan_hours, 2.5, 1e-6);
  EXPECT_NEAR(run.cost_total, 9.0, 2 * 5.0 / 3600.0);
}

TEST(CampaignSpecs, BadInputIsRefusedWithTheField) {
  const SpotMarket market = counted_market({1.0});
  const PolicyFactories policies = factories("spot-only", "none");
  CampaignSpec empty;
  EXPECT_THROW(run_campaign(market, empty, policies, ReplicationPlan{}), InputError);
  CampaignSpec spec;
  spec.jobs.push_back(campaign_job(1.0));
  spec.early_stopping.rungs = {0.5, 0.25};
  try {
    run_campaign(market, spec, policies, ReplicationPlan{});
    FAIL() << "rungs out of order accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rungs"), std::string::npos) << e.what();
  }
  spec.early_stopping = {};
  spec.jobs[0].job.elastic.min_nodes = 1;
  EXPECT_THROW(run_campaign(market, spec, policies, ReplicationPlan{}), InputError);
  spec.jobs[0].job.elastic.min_nodes = 0;
  spec.budget_usd = -1;
  EXPECT_THROW(run_campaign(market, spec, policies, ReplicationPlan{}), InputError);
}

TEST(CampaignSpecs, SuccessiveHalvingRungs) {
  const EarlyStopping s = successive_halving(3.0, 1.0 / 9.0);
  ASSERT_EQ(s.rungs.size(), 2u);
  EXPECT_NEAR(s.rungs[0], 1.0 / 9.0, 1e-12);
  EXPECT_NEAR(s.rungs[1], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(s.keep_fraction, 1.0 / 3.0, 1e-12);
  EXPECT_EQ(successive_halving(2.0, 0.125).rungs.size(), 3u);
}

}  // namespace
}  // namespace spotsim

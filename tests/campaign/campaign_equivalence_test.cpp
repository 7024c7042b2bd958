// The campaign engine against the single-job engine: a campaign of one job is `simulate` of that job, run for run;
// jobs whose capacity never binds are independent jobs (each `simulate` with its own seed and start); early stopping
// that keeps every trial changes nothing; the thread count changes nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "model/scenario.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::expect_same_run;
using testing::factories;
using testing::shipped_trace;

struct Case {
  std::string trace, selection, checkpoint;
  double work_hours;
  int nodes;
  double deadline_hours;  // 0 = none
};

class OneJobCampaign : public ::testing::TestWithParam<Case> {};

TEST_P(OneJobCampaign, EqualsSimulateRunForRun) {
  const Case c = GetParam();
  const SpotMarket market = shipped_trace(c.trace);
  CampaignSpec spec;
  spec.jobs.push_back(campaign_job(c.work_hours, 0.0, c.nodes));
  if (c.deadline_hours > 0) spec.jobs[0].job.deadline = millis_from_hours(c.deadline_hours);
  const PolicyFactories policies = factories(c.selection, c.checkpoint);
  const ReplicationPlan plan{7, 0, 200, 2};
  const Scenario scenario(market, spec.jobs[0].job);
  const auto alone = run_replications(scenario, policies, plan);
  const auto campaign = run_campaign(market, spec, policies, plan);
  ASSERT_EQ(alone.size(), campaign.size());
  int preempted = 0;
  for (std::size_t r = 0; r < alone.size(); ++r) {
    expect_same_run(campaign[r].job_runs[0], alone[r], "replication " + std::to_string(r));
    EXPECT_EQ(campaign[r].cost_total, alone[r].cost_total);
    EXPECT_DOUBLE_EQ(campaign[r].makespan_hours, alone[r].completion_hours);
    preempted += alone[r].preemptions > 0;
  }
  EXPECT_GT(preempted, 0) << "the case should exercise preemptions";
}

INSTANTIATE_TEST_SUITE_P(Traces, OneJobCampaign,
                         ::testing::Values(Case{"us-west1.json", "adaptive", "young-daly", 30.0, 1, 0.0},
                                           Case{"us-west1.json", "greedy", "hazard", 20.0, 1, 30.0},
                                           Case{"aws-v100-16-node.json", "spot-only", "young-daly", 12.0, 4, 0.0},
                                           Case{"aws-p3-bamboo-32-node.json", "uniform-progress", "fixed", 6.0, 8,
                                                12.0},
                                           Case{"gcp-h100-13-zones.json", "spot-only", "young-daly", 24.0, 1, 0.0},
                                           Case{"gcp-h100-13-zones.json", "greedy", "on-notice", 24.0, 1, 40.0}),
                         [](const auto& param_info) { return "case" + std::to_string(param_info.index); });

// Five jobs of different lengths arriving at different times. On the bathtub trace nothing limits spot; on the
// Bamboo log the pool never holds fewer than 10 instances and the jobs hold at most 5: the capacity never binds,
// so each job runs as it would alone (its own seed, starting at the campaign's start plus its arrival).
void expect_independent_jobs(const std::string& trace, const std::string& selection) {
  const SpotMarket market = shipped_trace(trace);
  CampaignSpec spec;
  const double works[] = {6.0, 14.0, 3.0, 9.5, 20.0};
  const double arrivals[] = {0.0, 0.0, 2.5, 7.0, 11.0};
  for (int j = 0; j < 5; ++j) spec.jobs.push_back(campaign_job(works[j], arrivals[j]));
  const PolicyFactories policies = factories(selection, "young-daly");
  const Millis start = 3 * kMillisPerHour;
  const ReplicationPlan plan{11, 0, 60, 2};
  const auto campaign = run_campaign(market, spec, policies, plan, TraceStart{false, start});
  double total_alone = 0.0, total_campaign = 0.0;
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const Scenario scenario(market, spec.jobs[j].job, TraceStart{false, start + spec.jobs[j].arrival});
    const auto alone = run_replications(scenario, policies, ReplicationPlan{campaign_job_seed(11, j), 0, 60, 2});
    for (std::size_t r = 0; r < alone.size(); ++r) {
      expect_same_run(campaign[r].job_runs[j], alone[r],
                      trace + " job " + std::to_string(j) + " replication " + std::to_string(r));
      total_alone += alone[r].cost_total;
    }
  }
  for (const CampaignRun& run : campaign) {
    total_campaign += run.cost_total;
    double end = 0.0;
    for (std::size_t j = 0; j < run.jobs.size(); ++j)
      end = std::max(end, arrivals[j] + run.job_runs[j].completion_hours);
    EXPECT_DOUBLE_EQ(run.makespan_hours, end);
    EXPECT_EQ(run.capacity_reclaims, 0);
  }
  EXPECT_NEAR(total_campaign, total_alone, 1e-9 * total_alone);
}

TEST(IndependentJobs, UnlimitedCapacityIsTheSumOfJobs) { expect_independent_jobs("us-west1.json", "adaptive"); }
TEST(IndependentJobs, CapacityThatNeverBindsIsTheSumOfJobs) {
  expect_independent_jobs("aws-p3-bamboo-32-node.json", "spot-only");
}

TEST(EarlyStopping, KeepingEveryTrialChangesNothing) {
  const SpotMarket market = shipped_trace("us-west1.json");
  CampaignSpec none;
  for (int j = 0; j < 6; ++j) none.jobs.push_back(campaign_job(4.0 + 3.0 * j, 0.5 * j));
  CampaignSpec keep_all = none;
  keep_all.early_stopping = successive_halving(3.0, 1.0 / 9.0);
  keep_all.early_stopping.keep_fraction = 1.0;
  ASSERT_EQ(keep_all.early_stopping.rungs.size(), 2u);
  const PolicyFactories policies = factories("adaptive", "young-daly");
  const ReplicationPlan plan{3, 0, 80, 2};
  const auto a = run_campaign(market, none, policies, plan);
  const auto b = run_campaign(market, keep_all, policies, plan);
  for (std::size_t r = 0; r < a.size(); ++r) {
    EXPECT_EQ(a[r].cost_total, b[r].cost_total);
    EXPECT_EQ(a[r].makespan_hours, b[r].makespan_hours);
    EXPECT_EQ(b[r].stopped_early, 0);
    for (std::size_t j = 0; j < a[r].jobs.size(); ++j)
      expect_same_run(a[r].job_runs[j], b[r].job_runs[j], "job " + std::to_string(j));
  }
}

TEST(Campaign, SameResultsForAnyThreadCount) {
  const SpotMarket market = shipped_trace("gcp-h100-13-zones.json");
  CampaignSpec spec;
  for (int j = 0; j < 12; ++j) spec.jobs.push_back(campaign_job(5.0 + j, 0.25 * j));
  const PolicyFactories policies = factories("greedy", "young-daly");
  for (auto& job : spec.jobs) job.job.deadline = millis_from_hours(48.0);
  const auto one = run_campaign(market, spec, policies, ReplicationPlan{5, 0, 40, 1});
  const auto four = run_campaign(market, spec, policies, ReplicationPlan{5, 0, 40, 4});
  for (std::size_t r = 0; r < one.size(); ++r) {
    EXPECT_EQ(one[r].cost_total, four[r].cost_total);
    EXPECT_EQ(one[r].makespan_hours, four[r].makespan_hours);
    EXPECT_EQ(one[r].held_by_hour, four[r].held_by_hour);
  }
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

// The CLI's path: runs handed over one by one, in replication order, whatever the thread count, without the jobs'
// own RunResults, summarized as they come; the summary equals that of all runs kept, and each job's figures equal
// the plain statistics of its finish times over the replications.
TEST(Campaign, StreamedRunsComeInOrderAndSummarizeAsAllRunsKept) {
  const SpotMarket market = testing::shipped_trace("gcp-h100-13-zones.json");
  CampaignSpec spec;
  for (int j = 0; j < 9; ++j) spec.jobs.push_back(testing::campaign_job(4.0 + j, 0.5 * j));
  const PolicyFactories policies = testing::factories("greedy", "young-daly");
  const ReplicationPlan plan{3, 0, 37, 1};
  const auto kept = run_campaign(market, spec, policies, plan);
  const CampaignSummary all = summarize_campaign(spec, kept);
  for (const int threads : {1, 3, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    ReplicationPlan p = plan;
    p.threads = threads;
    CampaignSummaryBuilder builder(spec, {}, p.count);
    std::vector<std::uint64_t> order;
    run_campaign(market, spec, policies, p, TraceStart{}, /*keep_job_runs=*/false, [&](CampaignRun&& run) {
      order.push_back(run.replication);
      EXPECT_TRUE(run.job_runs.empty());
      EXPECT_EQ(run.jobs.size(), spec.jobs.size());
      builder.add(run);
    });
    ASSERT_EQ(order.size(), p.count);
    for (std::size_t r = 0; r < order.size(); ++r) EXPECT_EQ(order[r], r);
    const CampaignSummary streamed = builder.finish();
    EXPECT_EQ(streamed.cost_total.mean, all.cost_total.mean);
    EXPECT_EQ(streamed.cost_total.p95, all.cost_total.p95);
    EXPECT_EQ(streamed.makespan_hours.ci_high, all.makespan_hours.ci_high);
    EXPECT_EQ(streamed.p_deadline_met, all.p_deadline_met);
    EXPECT_EQ(streamed.held_by_hour, all.held_by_hour);
    EXPECT_EQ(streamed.capacity_by_hour, all.capacity_by_hour);
    EXPECT_EQ(streamed.job_completed_share, all.job_completed_share);
    for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
      EXPECT_EQ(streamed.job_finish_hours[j].mean, all.job_finish_hours[j].mean);
      EXPECT_EQ(streamed.job_finish_hours[j].ci_low, all.job_finish_hours[j].ci_low);
    }
  }
  std::vector<double> held_mean(all.held_by_hour.size(), 0.0);
  for (const CampaignRun& run : kept) {
    for (std::size_t h = 0; h < run.held_by_hour.size(); ++h)
      held_mean[h] += run.held_by_hour[h] / static_cast<double>(kept.size());
  }
  for (std::size_t h = 0; h < held_mean.size(); ++h) EXPECT_DOUBLE_EQ(all.held_by_hour[h], held_mean[h]);
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    std::vector<double> finish;
    for (const CampaignRun& run : kept) finish.push_back(run.jobs[j].finish_hours);
    const Summary plain = summarize(finish);
    const JobFinishSummary& s = all.job_finish_hours[j];
    EXPECT_EQ(s.n, kept.size());
    EXPECT_EQ(s.mean, plain.mean);
    EXPECT_EQ(s.sd, plain.sd);
    EXPECT_EQ(s.min, plain.min);
    EXPECT_EQ(s.max, plain.max);
    EXPECT_EQ(s.ci_low, plain.ci_low);
    EXPECT_EQ(s.ci_high, plain.ci_high);
  }
}

}  // namespace
}  // namespace spotsim

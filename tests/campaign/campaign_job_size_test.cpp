// Per-job turnaround and slowdown by job size, the trace-span refusal and the savings against a baseline
// (docs/campaign.md#by-job-size, #inputs, #savings), each against figures worked out by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/campaign/campaign_json.hpp"
#include "app/campaign/campaign_savings.hpp"
#include "app/campaign/job_size_groups.hpp"
#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "engine/campaign/campaign_summary.hpp"

namespace spotsim {
namespace {

using testing::kStartupHours;

CampaignJobOutcome outcome(double finish_hours, double cost, bool met) {
  CampaignJobOutcome o;
  o.status = JobStatus::kCompleted;
  o.finish_hours = finish_hours;
  o.cost = cost;
  o.deadline_met = met;
  return o;
}

// Three jobs: a 2 h job at 0 (group 0), two 4 h jobs at 1 h and 2 h (group 1); two replications.
struct ThreeJobs {
  CampaignSpec spec;
  std::vector<CampaignRun> runs;
  ThreeJobs() {
    spec.jobs = {testing::campaign_job(2.0, 0.0), testing::campaign_job(4.0, 1.0), testing::campaign_job(4.0, 2.0)};
    runs.resize(2);
    runs[0].jobs = {outcome(2.0, 10.0, true), outcome(5.0, 20.0, true), outcome(10.0, 30.0, false)};
    runs[1].jobs = {outcome(4.0, 14.0, false), outcome(9.0, 40.0, true), outcome(6.0, 50.0, true)};
    for (std::uint64_t r = 0; r < 2; ++r) runs[r].replication = r;
  }
  CampaignSummary summary() const {  // run by run
    CampaignSummaryBuilder builder(spec, {0, 1, 1}, 2);
    for (const CampaignRun& run : runs) builder.add(run);
    return builder.finish();
  }
};

TEST(JobSize, TurnaroundSlowdownCostAndDeadlinePerJob) {
  const ThreeJobs c;
  const CampaignSummary s = c.summary();
  ASSERT_EQ(s.job_turnaround.size(), 3u);
  // Job 1 (arrives at 1 h, 4 h of work) ends at 5 h and 9 h: turnaround 4 and 8 h, slowdown 1 and 2.
  EXPECT_DOUBLE_EQ(s.job_turnaround[1].turnaround_hours.mean, 6.0);
  EXPECT_DOUBLE_EQ(s.job_turnaround[1].slowdown, 1.5);
  EXPECT_DOUBLE_EQ(s.job_turnaround[1].cost, 30.0);
  EXPECT_DOUBLE_EQ(s.job_turnaround[1].deadline_met_share, 1.0);
  EXPECT_DOUBLE_EQ(s.job_turnaround[0].slowdown, 1.5);  // 2/2 and 4/2
  EXPECT_DOUBLE_EQ(s.job_turnaround[2].deadline_met_share, 0.5);
  EXPECT_EQ(s.job_turnaround[2].turnaround_hours.n, 2u);
  // Finish times are unchanged by the new figures.
  EXPECT_DOUBLE_EQ(s.job_finish_hours[2].mean, 8.0);
}

TEST(JobSize, GroupsAverageTheirJobsPerReplicationThenOverReplications) {
  const ThreeJobs c;
  const CampaignSummary s = c.summary();
  ASSERT_EQ(s.job_groups.size(), 2u);
  EXPECT_EQ(s.job_groups[0].jobs, 1u);
  EXPECT_EQ(s.job_groups[1].jobs, 2u);
  // Group 1, replication 0: turnarounds 4 and 8 h (mean 6), slowdowns 1 and 2 (1.5), costs 20 and 30 (25), one
  // deadline of two (0.5); replication 1: 8 and 4 h (6), 2 and 1 (1.5), 40 and 50 (45), both (1).
  const JobGroupSummary& g = s.job_groups[1];
  EXPECT_DOUBLE_EQ(g.turnaround_hours.mean, 6.0);
  EXPECT_DOUBLE_EQ(g.turnaround_hours.sd, 0.0);
  EXPECT_DOUBLE_EQ(g.slowdown.mean, 1.5);
  EXPECT_DOUBLE_EQ(g.cost.mean, 35.0);
  EXPECT_DOUBLE_EQ(g.cost.ci_low, summarize(std::vector<double>{25.0, 45.0}).ci_low);
  EXPECT_DOUBLE_EQ(g.deadline_met.mean, 0.75);
  EXPECT_EQ(g.turnaround_hours.n, 2u);
  EXPECT_DOUBLE_EQ(s.job_groups[0].turnaround_hours.mean, 3.0);
  // Job by job (the managed rows' order) gives the same figures.
  CampaignSummaryBuilder by_job(c.spec, {0, 1, 1}, 2);
  for (std::size_t j = 0; j < 3; ++j) {
    for (const CampaignRun& run : c.runs) by_job.add_job(j, run.jobs[j]);
  }
  for (CampaignRun run : c.runs) {
    run.jobs.clear();
    by_job.add_run(run);
  }
  const CampaignSummary t = by_job.finish();
  EXPECT_DOUBLE_EQ(t.job_groups[1].cost.ci_high, g.cost.ci_high);
  EXPECT_DOUBLE_EQ(t.job_groups[1].deadline_met.mean, g.deadline_met.mean);
  EXPECT_DOUBLE_EQ(t.job_groups[0].slowdown.mean, s.job_groups[0].slowdown.mean);
}

// Two spot instances, four 1-instance 3 h jobs: two end at 3 h 5 m, two wait and end at 6 h 10 m (the capacity
// test's case). Turnaround 3.083 and 6.167 h; slowdown that over 3 h; cost $1/h while held.
TEST(JobSize, WaitingShowsInTurnaroundAndSlowdown) {
  const SpotMarket market = testing::counted_market({2.0});
  CampaignSpec spec;
  for (int j = 0; j < 4; ++j) spec.jobs.push_back(testing::campaign_job(3.0));
  const auto runs = run_campaign(market, spec, testing::factories("spot-only", "none"), ReplicationPlan{1, 0, 1, 1},
                                 TraceStart{false, 0});
  const double first = kStartupHours + 3.0;
  EXPECT_NEAR(runs[0].jobs[0].cost, first, 1e-6);
  EXPECT_NEAR(runs[0].jobs[3].cost, first, 1e-6);  // waiting is not paid
  const CampaignSummary s = summarize_campaign(spec, runs);
  EXPECT_NEAR(s.job_turnaround[3].turnaround_hours.mean, 2 * first, 1e-9);
  EXPECT_NEAR(s.job_turnaround[3].slowdown, 2 * first / 3.0, 1e-9);
  ASSERT_EQ(s.job_groups.size(), 1u);
  EXPECT_NEAR(s.job_groups[0].turnaround_hours.mean, 1.5 * first, 1e-9);
  EXPECT_NEAR(s.job_groups[0].cost.mean, first, 1e-6);
}

TEST(JobSize, GroupedByGpusWhenEveryJobStatesThemElseByInstances) {
  CampaignSpec spec;
  spec.jobs = {testing::campaign_job(1.0), testing::campaign_job(1.0), testing::campaign_job(1.0)};
  spec.jobs[0].job.gpus = 8;
  spec.jobs[1].job.gpus = 1;
  spec.jobs[2].job.gpus = 8;
  JobSizeGroups groups = job_size_groups(spec);
  EXPECT_EQ(groups.unit, "gpus");
  EXPECT_EQ(groups.sizes, (std::vector<int>{1, 8}));
  EXPECT_EQ(groups.group_of_job, (std::vector<std::size_t>{1, 0, 1}));
  spec.jobs[1].job.gpus = 0;  // given in nodes (1 instance)
  spec.jobs[0].job.nodes = 2;
  groups = job_size_groups(spec);
  EXPECT_EQ(groups.unit, "instances");
  EXPECT_EQ(groups.sizes, (std::vector<int>{1, 2}));
  EXPECT_EQ(groups.group_of_job, (std::vector<std::size_t>{1, 0, 0}));
}

// The recording is 8 h long (counted_market's span with 8 hourly values): a job that could end by 8 h fits, one
// that cannot is refused, naming both spans and --replay; a lifetime model has nothing to replay.
TEST(TraceSpan, ACampaignThatMustOutlastTheRecordingIsRefused) {
  SpotMarket market = testing::counted_market({1, 1, 1, 1, 1, 1, 1, 1});
  ASSERT_EQ(market.span, 8 * kMillisPerHour);
  CampaignSpec spec;
  spec.jobs = {testing::campaign_job(2.0, 0.0), testing::campaign_job(4.0, 4.0)};
  spec.jobs[1].name = "late";
  EXPECT_NO_THROW(check_campaign_fits_trace(market, spec));
  spec.jobs[1].arrival = millis_from_hours(5.0);
  try {
    check_campaign_fits_trace(market, spec);
    FAIL() << "expected a refusal";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("9.0 h"), std::string::npos) << message;
    EXPECT_NE(message.find("(8.0 h)"), std::string::npos) << message;
    EXPECT_NE(message.find("'late'"), std::string::npos) << message;
    EXPECT_NE(message.find("--replay"), std::string::npos) << message;
  }
  market.span = kNever;
  EXPECT_NO_THROW(check_campaign_fits_trace(market, spec));
}

CampaignRow row(const std::string& label, bool managed, double cost) {
  CampaignRow r;
  r.label = label;
  r.managed = managed;
  r.summary.cost_total.mean = cost;
  return r;
}

TEST(Savings, BaselineIsNamedByItsLabelOrItsWords) {
  const std::vector<std::string> labels = {"spot-only", "on-demand", "vertex-ai on-demand a2-highgpu-8g",
                                           "vertex-ai spot a2-highgpu-8g", "sagemaker on-demand ml.p4d.24xlarge"};
  EXPECT_EQ(resolve_baseline("vertex on-demand", labels), "vertex-ai on-demand a2-highgpu-8g");
  EXPECT_EQ(resolve_baseline("On-Demand", labels), "on-demand");  // the exact label before words
  EXPECT_EQ(resolve_baseline("sagemaker", labels), "sagemaker on-demand ml.p4d.24xlarge");
  EXPECT_THROW(resolve_baseline("vertex", labels), InputError);  // two rows
  EXPECT_THROW(resolve_baseline("azure", labels), InputError);
  EXPECT_THROW(resolve_baseline(" ", labels), InputError);
}

// Baseline $1,000 per campaign, $12,000 a month today: a policy at $400 saves 60% = $7,200 a month and pays while
// engineering costs less than that ($5,200 net of $2,000); one at $1,500 costs 50% = $6,000 a month more.
TEST(Savings, MonthlySavingAndEngineeringLimit) {
  const std::vector<CampaignRow> rows = {row("cheap", false, 400.0), row("dear", false, 1500.0),
                                         row("vertex-ai on-demand x", true, 1000.0), row("other", true, 200.0)};
  const nlohmann::json s = campaign_savings_json(rows, rows[2], 12000.0, 2000.0);
  EXPECT_EQ(s["baseline"], "vertex-ai on-demand x");
  ASSERT_EQ(s["policies"].size(), 2u);  // DIY rows only
  EXPECT_DOUBLE_EQ(s["policies"][0]["saving_fraction"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(s["policies"][0]["gross_saving_per_month"].get<double>(), 7200.0);
  EXPECT_DOUBLE_EQ(s["policies"][0]["net_saving_per_month"].get<double>(), 5200.0);
  EXPECT_DOUBLE_EQ(s["policies"][0]["engineering_limit_per_month"].get<double>(), 7200.0);
  EXPECT_TRUE(s["policies"][1]["engineering_limit_per_month"].is_null());
  const std::string text = campaign_savings_text(s);
  EXPECT_NE(text.find("DIY with cheap saves $5,200 a month against vertex-ai on-demand x (60.0% of $12,000, net of "
                      "engineering); it pays while engineering costs less than $7,200 a month"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DIY with dear costs $6,000 a month more"), std::string::npos) << text;
  // Without an engineering cost the saving is the gross one; the comparison row defaults to the cheapest managed.
  EXPECT_EQ(comparison_row(rows, std::nullopt, "--current-spend").label, "other");
  EXPECT_EQ(comparison_row(rows, std::string("dear"), "--current-spend").label, "dear");
  const nlohmann::json gross = campaign_savings_json(rows, rows[1], 12000.0, std::nullopt);
  EXPECT_NE(campaign_savings_text(gross).find("DIY with cheap saves $8,800 a month against dear"), std::string::npos);
}

TEST(Savings, CurrentSpendIsAMonthlyAmount) {
  EXPECT_DOUBLE_EQ(parse_current_spend("12000/month"), 12000.0);
  EXPECT_DOUBLE_EQ(parse_current_spend("12000"), 12000.0);
  for (const char* bad : {"12k", "-1", "12000/year", "", "0"}) {
    try {
      parse_current_spend(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--current-spend"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace spotsim

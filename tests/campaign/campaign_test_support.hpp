#pragma once
// Markets, jobs and policies for the campaign tests.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/campaign/campaign_result.hpp"
#include "engine/replication_runner.hpp"
#include "model/campaign_spec.hpp"
#include "model/market/spot_market.hpp"
#include "policies/policy_registry.hpp"
#include "tests/support/market_builder.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim::testing {

inline SpotMarket shipped_trace(const std::string& name) {
  return read_trace_file(std::string(SPOTSIM_REPO_DIR) + "/traces/library/" + name);
}

inline PolicyFactories factories(const std::string& selection, const std::string& checkpoint) {
  static const PolicyRegistry registry = builtin_policy_registry();
  return PolicyFactories{registry.selection_factory(selection), registry.checkpoint_factory(checkpoint)};
}

// One zone whose spot count follows `counts` (one value per hour, repeating), spot $1/h, on-demand $3/h.
inline SpotMarket counted_market(const std::vector<double>& counts, Millis notice = 30 * kMillisPerSecond) {
  return MarketBuilder("test")
      .zone("z")
      .on_demand(3.0)
      .spot_price(1.0)
      .hourly_counts(counts)
      .notice(notice)
      .tick(kMillisPerHour)
      .build();
}

// JobSpec's default start-up, in hours: what every job here pays before its work.
inline const double kStartupHours = to_hours(JobSpec{}.startup);

inline CampaignJob campaign_job(double work_hours, double arrival_hours = 0.0, int nodes = 1) {
  CampaignJob job;
  job.job.work = millis_from_hours(work_hours);
  job.job.nodes = nodes;
  job.arrival = millis_from_hours(arrival_hours);
  return job;
}

// The same run, field by field (the fingerprint covers the events' times and kinds).
inline void expect_same_run(const RunResult& a, const RunResult& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.completed, b.completed);
  EXPECT_EQ(a.deadline_met, b.deadline_met);
  EXPECT_EQ(a.completion_hours, b.completion_hours);
  EXPECT_EQ(a.cost_total, b.cost_total);
  EXPECT_EQ(a.cost_spot, b.cost_spot);
  EXPECT_EQ(a.cost_on_demand, b.cost_on_demand);
  EXPECT_EQ(a.cost_egress, b.cost_egress);
  EXPECT_EQ(a.preemptions, b.preemptions);
  EXPECT_EQ(a.checkpoints, b.checkpoints);
  EXPECT_EQ(a.lost_work_hours, b.lost_work_hours);
  EXPECT_EQ(a.ledger_compute, b.ledger_compute);
  EXPECT_EQ(a.ledger_lost_work, b.ledger_lost_work);
  EXPECT_EQ(a.ledger_idle, b.ledger_idle);
  EXPECT_EQ(a.trace_start_hours, b.trace_start_hours);
}

// Every run completed all `jobs` without ever holding, hour by hour, more spot than the count; returns the reclaims
// the excess rule made (for the caller to check that it was exercised).
inline int expect_within_the_count(const std::vector<CampaignRun>& runs, int jobs) {
  int reclaims = 0;
  for (const CampaignRun& run : runs) {
    EXPECT_EQ(run.completed, jobs);
    reclaims += run.capacity_reclaims;
    for (std::size_t h = 0; h < run.held_by_hour.size(); ++h) {
      EXPECT_LE(run.held_by_hour[h], run.capacity_by_hour[h] + 1e-9) << "hour " << h;
    }
  }
  return reclaims;
}

}  // namespace spotsim::testing

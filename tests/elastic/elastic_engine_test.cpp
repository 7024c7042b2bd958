// The elastic engine (engine/elastic/elastic_simulation.hpp) against the single-instance engine it generalises, and
// its bookkeeping: min_nodes == nodes is today's restart mode run for run, node-hours are what is billed, the
// ledger sums to the total, and results do not depend on the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "base/errors.hpp"
#include "elastic_markets.hpp"
#include "model/elastic_job.hpp"
#include "tests/support/case_budget.hpp"

namespace spotsim {
namespace {

using testing::ledger_sum;
using testing::pool_market;
using testing::run_elastic;

JobSpec multi_node_job(int nodes, double work_hours = 20.0) {
  JobSpec job = testing::job(work_hours, 2 * kMillisPerMinute, 3 * kMillisPerMinute, 5 * kMillisPerMinute);
  job.nodes = nodes;
  job.checkpoint_size_gb = 20.0;
  return job;
}

void expect_same_runs(const std::vector<RunResult>& elastic, const std::vector<RunResult>& restart,
                      const std::string& what) {
  ASSERT_EQ(elastic.size(), restart.size());
  for (std::size_t i = 0; i < elastic.size(); ++i) {
    const RunResult& e = elastic[i];
    const RunResult& r = restart[i];
    SCOPED_TRACE(what + " replication " + std::to_string(i));
    // Times are sums of the same millisecond stretches: equal exactly. Costs are the same bills summed in the same
    // order, the ledger is priced per stretch instead of per instance: equal to rounding.
    ASSERT_EQ(e.completed, r.completed);
    ASSERT_EQ(e.completion_hours, r.completion_hours);
    ASSERT_EQ(e.preemptions, r.preemptions);
    ASSERT_EQ(e.checkpoints, r.checkpoints);
    ASSERT_EQ(e.spot_starts, r.spot_starts);
    ASSERT_EQ(e.on_demand_starts, r.on_demand_starts);
    ASSERT_EQ(e.lost_work_hours, r.lost_work_hours);
    ASSERT_EQ(e.wait_hours, r.wait_hours);
    ASSERT_EQ(e.startup_hours, r.startup_hours);
    ASSERT_EQ(e.restore_hours, r.restore_hours);
    ASSERT_EQ(e.checkpoint_hours, r.checkpoint_hours);
    ASSERT_EQ(e.spot_hours, r.spot_hours);
    ASSERT_EQ(e.on_demand_hours, r.on_demand_hours);
    ASSERT_EQ(e.cost_spot, r.cost_spot);
    ASSERT_EQ(e.cost_on_demand, r.cost_on_demand);
    ASSERT_EQ(e.cost_total, r.cost_total);
    ASSERT_EQ(e.work_done_hours, r.work_done_hours);
    ASSERT_NEAR(e.ledger_compute, r.ledger_compute, 1e-9 * std::max(1.0, r.cost_total));
    ASSERT_NEAR(e.ledger_lost_work, r.ledger_lost_work, 1e-9 * std::max(1.0, r.cost_total));
    ASSERT_EQ(e.reconfigurations, 0);
  }
}

std::vector<RunResult> run_restart(const SpotMarket& market, const JobSpec& job, const std::string& selection,
                                   const std::string& checkpoint, std::uint64_t count) {
  JobSpec restart = job;
  restart.elastic.min_nodes = 0;  // the single-instance engine
  const Scenario scenario(market, restart);
  return run_replications(scenario, testing::policies(selection, checkpoint), {11, 0, count, 1});
}

TEST(ElasticEngine, MinNodesEqualToNodesIsTheRestartModeRunForRun) {
  struct Case {
    std::string name;
    SpotMarket market;
    int nodes;
  };
  SpotMarket correlated = testing::single_zone_market(ExponentialLifetime{30.0}, 0.9, 3.0);
  correlated.zones[0].spot.node_correlation = 0.3;
  const std::vector<Case> cases = {
      {"pool of exactly the job's 8", pool_market(8, 10 * kMillisPerMinute, 3000, 1), 8},
      {"8 of a pool of 24 (reclaims drawn)", pool_market(24, 10 * kMillisPerMinute, 3000, 2), 8},
      {"exponential lifetimes, correlated", correlated, 6},
      {"Weibull lifetimes", testing::single_zone_market(WeibullLifetime{0.7, 40.0}, 0.9, 3.0), 4},
  };
  for (const Case& c : cases) {
    JobSpec job = multi_node_job(c.nodes);
    job.elastic.min_nodes = c.nodes;
    for (const char* checkpoint : {"fixed:interval=1h", "none", "young-daly"}) {
      expect_same_runs(run_elastic(c.market, job, "spot-nodes", checkpoint, 150),
                       run_restart(c.market, job, "spot-only", checkpoint, 150), c.name + " / spot / " + checkpoint);
    }
    expect_same_runs(run_elastic(c.market, job, "on-demand-nodes", "fixed:interval=1h", 20),
                     run_restart(c.market, job, "on-demand", "fixed:interval=1h", 20), c.name + " / on-demand");
  }
}

TEST(ElasticEngine, SameResultsForAnyThreadCount) {
  JobSpec job = multi_node_job(8);
  job.elastic.min_nodes = 3;
  const SpotMarket market = pool_market(12, 10 * kMillisPerMinute, 3000, 3);
  const auto one = run_elastic(market, job, "spot-nodes:core=1", "fixed:interval=1h", 300, 1);
  const auto many = run_elastic(market, job, "spot-nodes:core=1", "fixed:interval=1h", 300, 4);
  for (std::size_t i = 0; i < one.size(); ++i) {
    ASSERT_EQ(one[i].fingerprint, many[i].fingerprint) << i;
    ASSERT_EQ(one[i].cost_total, many[i].cost_total) << i;
  }
}

// Per-millisecond billing at constant prices: what is billed is exactly the instance-hours held.
TEST(ElasticEngine, NodeHoursBilledEqualTheHeldInstanceTime) {
  JobSpec job = multi_node_job(8);
  job.deadline = millis_from_hours(30.0);
  for (int min_nodes : {8, 5, 1}) {
    job.elastic.min_nodes = min_nodes;
    const SpotMarket market = pool_market(10, 15 * kMillisPerMinute, 2000, 4, 0.9, 3.0);
    for (const char* policy : {"spot-nodes:core=2", "deadline-nodes", "deadline-nodes:core=1"}) {
      for (const RunResult& r : run_elastic(market, job, policy, "fixed:interval=1h", 200)) {
        SCOPED_TRACE(std::string(policy) + " min " + std::to_string(min_nodes) + " replication " +
                     std::to_string(r.replication));
        ASSERT_NEAR(r.cost_spot, 0.9 * r.spot_node_hours, 1e-9 * std::max(1.0, r.cost_spot));
        ASSERT_NEAR(r.cost_on_demand, 3.0 * r.on_demand_node_hours, 1e-9 * std::max(1.0, r.cost_on_demand));
        ASSERT_NEAR(ledger_sum(r), r.cost_total, 1e-9 * std::max(1.0, r.cost_total));
        ASSERT_NEAR(r.ledger_rounding, 0.0, 1e-9 * std::max(1.0, r.cost_total));
        // Instance-hours can never be fewer than wall time x the instances of a kind held at once, nor more than
        // nodes x that wall time.
        ASSERT_LE(r.spot_node_hours, job.nodes * r.spot_hours + 1e-9);
        ASSERT_GE(r.spot_node_hours + 1e-9, r.spot_hours);
      }
    }
  }
}

TEST(ElasticEngine, LedgerSumsToTheTotalWithBillingMinimaAndVaryingPrices) {
  SpotMarket market = pool_market(16, 10 * kMillisPerMinute, 3000, 5);
  market.billing = Billing{kMillisPerMinute, kMillisPerSecond};
  market.zones[0].spot.price_per_hour =
      StepSeries({0, 7 * kMillisPerHour, 19 * kMillisPerHour}, {0.8, 1.4, 0.6}, market.span);
  JobSpec job = multi_node_job(12);
  job.elastic.min_nodes = 6;
  for (const RunResult& r : run_elastic(market, job, "spot-nodes:core=2", "young-daly", 300)) {
    ASSERT_NEAR(ledger_sum(r), r.cost_total, 1e-9 * std::max(1.0, r.cost_total)) << r.replication;
    ASSERT_GE(r.ledger_rounding, -1e-9) << r.replication;
  }
}

// Above min_nodes a loss costs a reconfiguration, never progress: on a pool that never drops below min_nodes
// nothing is lost and the job never stops.
TEST(ElasticEngine, LossesAboveMinNodesKeepTheProgress) {
  SpotMarket market = pool_market(8, 10 * kMillisPerMinute, 3000, 6);
  auto& series = *market.zones[0].spot.available;
  std::vector<double> floored = series.values();
  for (double& v : floored) v = std::max(v, 4.0);
  market.zones[0].spot.available = StepSeries(series.times(), floored, series.span());
  JobSpec job = multi_node_job(8);
  job.elastic.min_nodes = 4;
  int reconfigured = 0;
  for (const RunResult& r : run_elastic(market, job, "spot-nodes", "fixed:interval=1h", 200)) {
    ASSERT_EQ(r.lost_work_hours, 0.0) << r.replication;
    ASSERT_TRUE(r.completed);
    reconfigured += r.reconfigurations;
  }
  EXPECT_GT(reconfigured, 0);  // the case is not vacuous
}

// Every deadline that leaves room for the allowances (start-up, restore, writes, one interval, reconfigurations) is
// met, on pools of several shapes, for the restart and elastic modes, with and without an on-demand core.
TEST(ElasticEngine, DeadlineSafetyNetMeetsAFeasibleDeadline) {
  JobSpec job = multi_node_job(8, 20.0);
  job.elastic.step_time_s_by_nodes = {1.0, 1.03, 1.05, 1.07, 1.08, 1.09, 1.10, 1.11};
  // 100 replications per setting in Release, 20 under the sanitizers (ELASTIC_NET_REPLICATIONS=n for a soak).
  const int replications = case_budget("ELASTIC_NET_REPLICATIONS", 100, 50, 20);
  int spot_used = 0, runs = 0;
  for (unsigned seed : {7u, 8u, 9u}) {
    for (int pool : {8, 12}) {
      const SpotMarket market = pool_market(pool, 10 * kMillisPerMinute, 3000, seed);
      for (double deadline_hours : {23.0, 26.0, 30.0}) {
        job.deadline = millis_from_hours(deadline_hours);
        for (int min_nodes : {8, 4, 1}) {
          job.elastic.min_nodes = min_nodes;
          for (const char* policy : {"deadline-nodes", "deadline-nodes:core=2"}) {
            for (const char* checkpoint : {"fixed:interval=1h", "young-daly"}) {
              for (const RunResult& r : run_elastic(market, job, policy, checkpoint, replications)) {
                ASSERT_TRUE(r.deadline_met)
                    << policy << " " << checkpoint << " seed " << seed << " pool " << pool << " deadline "
                    << deadline_hours << " min " << min_nodes << " replication " << r.replication;
                spot_used += r.spot_node_hours > 0.0;
                ++runs;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(spot_used, runs / 10);  // the net did not simply run everything on on-demand
}

TEST(ElasticEngine, RefusesWhatItCannotRun) {
  JobSpec job = multi_node_job(4);
  job.elastic.min_nodes = 5;
  EXPECT_THROW(validate_job(job, "job.json"), InputError);
  job.elastic.min_nodes = 2;
  job.elastic.step_time_s_by_nodes = {1.0, 1.0};
  EXPECT_THROW(validate_job(job, "job.json"), InputError);  // one per instance count
  job.elastic.step_time_s_by_nodes = {1.0, 1.1, -3.5, 4.0};
  EXPECT_THROW(validate_job(job, "job.json"), InputError);
  job.elastic.step_time_s_by_nodes = {1.0, 1.1, 1.2, 1.3};
  EXPECT_NO_THROW(validate_job(job, "job.json"));
  JobSpec single = job;
  single.elastic.min_nodes = 0;
  const SpotMarket one = testing::single_zone_market(std::nullopt);
  EXPECT_THROW(run_replications(Scenario(one, single), testing::node_policies("spot-nodes", "none"), {1, 0, 1, 1}),
               InputError);  // a multi-node policy on the single-instance engine
}

}  // namespace
}  // namespace spotsim

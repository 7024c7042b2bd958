// The elastic engine on cases with a closed-form answer: training at the throughput of the instances it has
// (step_time_s_by_nodes), instances joining through one reconfiguration of the stated length, throughput
// monotone in the instance count.
#include <gtest/gtest.h>

#include <cmath>

#include "elastic_markets.hpp"
#include "model/elastic_job.hpp"
#include "steptime/data_parallel_step.hpp"

namespace spotsim {
namespace {

constexpr double kSpot = 0.9;

// One zone whose pool holds `first` instances until `switch_at`, then `then` for a long time.
SpotMarket stepped_pool(int first, Millis switch_at, int then) {
  SpotMarket market = testing::single_zone_market(std::nullopt, kSpot, 3.0);
  market.span = 1000 * kMillisPerHour;
  market.zones[0].spot.available = StepSeries({0, switch_at}, {double(first), double(then)}, market.span);
  return market;
}

JobSpec scaling_job() {
  JobSpec job = testing::job(10.0, kMillisPerMinute, 2 * kMillisPerMinute, 4 * kMillisPerMinute);
  job.nodes = 8;
  job.elastic.min_nodes = 2;
  // A data-parallel job whose step grows with the all-reduce: throughput k / t_k rises, ever more slowly.
  job.elastic.step_time_s_by_nodes = {1.00, 1.06, 1.09, 1.11, 1.12, 1.13, 1.14, 1.15};
  job.checkpoint_size_gb = 40.0;
  job.elastic.network_gbps = 10.0;
  job.elastic.reconfigure = 30 * kMillisPerSecond;
  return job;
}

RunResult run_once(const SpotMarket& market, const JobSpec& job, const std::string& checkpoint = "none") {
  const Scenario scenario(market, job, TraceStart{false, 0});
  return run_replications(scenario, testing::node_policies("spot-nodes", checkpoint), {1, 0, 1, 1}).front();
}

TEST(ElasticAnalytic, RelativeThroughputIsMonotoneAndExactAtFullSize) {
  const JobSpec job = scaling_job();
  const auto rate = relative_throughput(job);
  ASSERT_EQ(rate.size(), 9u);
  EXPECT_EQ(rate[0], 0.0);
  EXPECT_EQ(rate[8], 1.0);
  for (int k = 1; k <= 8; ++k) {
    EXPECT_LT(rate[static_cast<std::size_t>(k) - 1], rate[static_cast<std::size_t>(k)]) << k;
    // k / t_k over 8 / t_8.
    EXPECT_NEAR(rate[static_cast<std::size_t>(k)],
                (k / job.elastic.step_time_s_by_nodes[static_cast<std::size_t>(k) - 1]) / (8 / 1.15), 1e-12);
  }
  JobSpec linear = job;
  linear.elastic.step_time_s_by_nodes.clear();
  EXPECT_DOUBLE_EQ(relative_throughput(linear)[3], 3.0 / 8.0);
  EXPECT_NEAR(single_instance_speedup(job), 8 * 1.00 / 1.15, 1e-12);
}

// The step-time model's throughput k / t_k rises with k from two instances on, whatever the model size, network and
// overlap (the ring term 2(k-1)/k x S/B saturates), and the engine trains faster on more of them.
TEST(ElasticAnalytic, DataParallelThroughputIsMonotoneFromTwoInstances) {
  for (double gradient_gb : {0.1, 0.5, 6.0}) {
    for (double overlap : {0.0, 0.8}) {
      for (const InstanceLinks& links :
           {InstanceLinks{"one-gpu", 1, 0, 10, 25, 0}, InstanceLinks{"eight-gpu", 8, 1200, 400, 10, 5}}) {
        const DataParallelProfile profile{100.0, 5.0, 66.0, gradient_gb * 1e9, overlap};
        double previous = 0.0;
        for (int k = 2; k <= 64; ++k) {
          const double throughput = k / data_parallel_step_ms(profile, k, links);
          EXPECT_GT(throughput, previous)
              << gradient_gb << " GB, overlap " << overlap << ", " << links.instance_type << ", k " << k;
          previous = throughput;
        }
      }
    }
  }
  // On the engine: the table from the model for 0.5 GB of gradients over 10 Gbit/s, constant pools of k >= 2.
  JobSpec job = scaling_job();
  const DataParallelProfile profile{100.0, 5.0, 66.0, 0.5e9, 0.8};
  const InstanceLinks links{"one-gpu", 1, 0, 10, 25, 0};
  for (int k = 1; k <= 8; ++k)
    job.elastic.step_time_s_by_nodes[static_cast<std::size_t>(k) - 1] =
        data_parallel_step_ms(profile, k, links) / 1000.0;
  double previous = INFINITY;
  for (int k = 2; k <= 8; ++k) {
    const RunResult r = run_once(stepped_pool(k, 999 * kMillisPerHour, k), job);
    EXPECT_LT(r.completion_hours, previous) << k;
    previous = r.completion_hours;
  }
}

TEST(ElasticAnalytic, ReconfigurationIsTheFixedPartPlusOneStateCopy) {
  // 40 GB x 8 bit / 10 Gbit/s = 32 s, plus 30 s.
  EXPECT_EQ(reconfiguration_time(scaling_job()), 62 * kMillisPerSecond);
}

// A pool that never holds more than k instances: the job trains on k from the start, at rate k / t_k relative to
// all 8, and pays for k instances the whole time.
TEST(ElasticAnalytic, ConstantPoolTrainsAtItsThroughput) {
  const JobSpec job = scaling_job();
  const auto rate = relative_throughput(job);
  double previous = INFINITY;
  for (int k = 2; k <= 8; ++k) {
    const RunResult r = run_once(stepped_pool(k, 999 * kMillisPerHour, k), job);
    const double r_k = rate[static_cast<std::size_t>(k)];
    const Millis expected = job.startup + static_cast<Millis>(std::ceil(static_cast<double>(job.work) / r_k));
    ASSERT_TRUE(r.completed);
    EXPECT_EQ(r.completion_hours, to_hours(expected)) << k;
    EXPECT_NEAR(r.cost_spot, k * kSpot * to_hours(expected), 1e-9) << k;
    EXPECT_EQ(r.reconfigurations, 0);
    EXPECT_LT(r.completion_hours, previous) << "more instances never train slower";
    previous = r.completion_hours;
  }
}

// Three instances until T, then all eight: the five that join start at T, are up after the start-up, and train
// after one reconfiguration of 62 s. Up to then the job progressed at the rate of three.
TEST(ElasticAnalytic, InstancesJoinThroughOneReconfiguration) {
  const JobSpec job = scaling_job();
  const Millis t = 3 * kMillisPerHour;
  const RunResult r = run_once(stepped_pool(3, t, 8), job);
  const double r_3 = relative_throughput(job)[3];
  const Millis trained_on_three = static_cast<Millis>(std::floor(static_cast<double>(t) * r_3));
  const Millis expected = t + job.startup + reconfiguration_time(job) + (job.work - trained_on_three);
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.completion_hours, to_hours(expected));
  EXPECT_EQ(r.reconfigurations, 1);
  EXPECT_EQ(r.reconfigure_hours, to_hours(reconfiguration_time(job)));
  // 3 instances for the whole run, 5 more from T on.
  EXPECT_NEAR(r.spot_node_hours, 3 * to_hours(expected) + 5 * to_hours(expected - t), 1e-9);
  EXPECT_EQ(r.lost_work_hours, 0.0);
}

// Below min_nodes the job stops as in the restart mode: the pool falls from 8 to 1 (< min 2) at T, the job loses
// what it trained since its last checkpoint and waits for the pool to return.
TEST(ElasticAnalytic, BelowMinNodesTheJobRestartsFromItsCheckpoint) {
  JobSpec job = scaling_job();
  SpotMarket market = testing::single_zone_market(std::nullopt, kSpot, 3.0);
  market.span = 1000 * kMillisPerHour;
  const Millis drop = 2 * kMillisPerHour + 10 * kMillisPerMinute, back = 4 * kMillisPerHour;
  market.zones[0].spot.available = StepSeries({0, drop, back}, {8.0, 1.0, 8.0}, market.span);
  const RunResult r = run_once(market, job, "fixed:interval=1h");
  // Checkpoints at 1 h and 2 h of training (written 1 min each): training began at the start-up (4 min), so the
  // second write ended at 4 + 60 + 1 + 60 + 1 min = 2 h 6 min; 4 min of training are lost at 2 h 10 min.
  EXPECT_EQ(r.lost_work_hours, to_hours(4 * kMillisPerMinute));
  EXPECT_EQ(r.preemptions, 1);
  EXPECT_EQ(r.nodes_lost, 7);
  // Back at 4 h: start-up, restore, then the 8 h of work left (plus its 7 hourly writes, the last hour needs none).
  const Millis expected = back + job.startup + job.restore + (job.work - 2 * kMillisPerHour) + 7 * job.checkpoint_write;
  EXPECT_EQ(r.completion_hours, to_hours(expected));
}

}  // namespace
}  // namespace spotsim

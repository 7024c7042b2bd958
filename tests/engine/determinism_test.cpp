// Same seed, same output, whatever the thread count.
#include <gtest/gtest.h>

#include <cstring>

#include "app/report_writer.hpp"
#include "app/simulation_request.hpp"
#include "engine/replication_runner.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

bool identical(const RunResult& a, const RunResult& b) {
  return a.replication == b.replication && a.completed == b.completed && a.deadline_met == b.deadline_met &&
         std::memcmp(&a.completion_hours, &b.completion_hours, sizeof(double)) == 0 &&
         std::memcmp(&a.cost_total, &b.cost_total, sizeof(double)) == 0 && a.preemptions == b.preemptions &&
         a.checkpoints == b.checkpoints && a.events == b.events && a.fingerprint == b.fingerprint &&
         std::memcmp(&a.lost_work_hours, &b.lost_work_hours, sizeof(double)) == 0;
}

TEST(Determinism, ResultsAreBitIdenticalForAnyThreadCount) {
  const SpotMarket market = testing::single_zone_market(BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0}));
  const Scenario scenario(market, testing::job(100.0, 2 * kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute));
  const auto policies = testing::policies("adaptive", "young-daly");
  const auto one = run_replications(scenario, policies, {99, 0, 3000, 1});
  for (int threads : {2, 3, 8}) {
    const auto many = run_replications(scenario, policies, {99, 0, 3000, threads});
    ASSERT_EQ(one.size(), many.size());
    for (std::size_t i = 0; i < one.size(); ++i) ASSERT_TRUE(identical(one[i], many[i])) << "replication " << i;
  }
}

TEST(Determinism, CommonRandomNumbersAcrossPolicies) {
  // Spot-only with continuous checkpointing and zero overheads: the wall-clock preemption times are the running
  // sums of the lifetime draws, whatever the checkpoint policy; a different checkpoint policy must see the same
  // first preemption.
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{5.0});
  const Scenario scenario(market, testing::job(50.0, 0, 0, 0));
  const auto a = run_replications(scenario, testing::policies("spot-only", "continuous"), {5, 0, 200, 0});
  const auto b = run_replications(scenario, testing::policies("spot-only", "fixed:interval=1h"), {5, 0, 200, 0});
  int same_count = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same_count += a[i].preemptions > 0 && b[i].preemptions > 0;
  EXPECT_GT(same_count, 150);
  // Zero-cost fixed checkpoints lose at most an hour per preemption, so b finishes later but is preempted by
  // the same sequence of lifetimes: b's preemption count is never smaller than a's.
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_GE(b[i].preemptions, a[i].preemptions);
}

TEST(Determinism, ReportJsonIsIdenticalForAnyThreadCount) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  request.replications = 500;
  request.threads = 1;
  const std::string one = report_json(run_simulation(request));
  request.threads = 4;
  EXPECT_EQ(one, report_json(run_simulation(request)));
}

}  // namespace
}  // namespace spotsim

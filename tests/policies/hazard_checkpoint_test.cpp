#include <gtest/gtest.h>

#include <cmath>

#include "base/statistics.hpp"
#include "engine/replication_runner.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "policies/checkpoint_math.hpp"
#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

std::unique_ptr<CheckpointPolicy> make(const std::string& spec) {
  return builtin_policy_registry().checkpoint_factory(spec)();
}

TEST(HazardCheckpoint, FollowsTheInstantaneousHazard) {
  const LifetimeDistribution bathtub = BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0});
  testing::ObservationBuilder b;
  b.job.checkpoint_write = 2 * kMillisPerMinute;
  b.job.nodes = 2;
  b.zones[0].lifetime = &bathtub;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 0;
  auto policy = make("hazard");
  EXPECT_TRUE(policy->varies_within_instance());
  Millis previous = 0;
  for (double age : {0.0, 1.0, 3.0, 8.0}) {
    b.obs.instance_age = millis_from_hours(age);
    const Millis tau = policy->next_interval(b.build());
    const double expected = std::sqrt(2.0 * (2.0 / 60.0) / (2.0 * bathtub.hazard(age)));
    EXPECT_NEAR(to_hours(tau), std::max(expected, 2.0 / 60.0), 1e-6) << age;
    EXPECT_GT(tau, previous) << "intervals grow as the early hazard fades";
    previous = tau;
  }
  b.obs.instance_age = millis_from_hours(24.3);
  EXPECT_LT(policy->next_interval(b.build()), 20 * kMillisPerMinute) << "the 24 h limit is near";
}

TEST(HazardCheckpoint, IntervalsStopShortOfTheRiseBeforeTheLimit) {
  // In the quiet middle of a bathtub lifetime the local hazard is tiny; the interval must still end before the
  // hazard climbs towards the 24 h limit, or the instance dies with hours of unsaved work.
  const LifetimeDistribution bathtub = BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0});
  testing::ObservationBuilder b;
  b.job.checkpoint_write = 5 * kMillisPerMinute;
  b.zones[0].lifetime = &bathtub;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 0;
  b.obs.instance_age = 10 * kMillisPerHour;
  const Millis tau = make("hazard")->next_interval(b.build());
  EXPECT_LT(10 * kMillisPerHour + tau, millis_from_hours(24.33)) << to_hours(tau);
  EXPECT_GT(tau, kMillisPerHour);
}

TEST(HazardCheckpoint, BeatsDalyOnALongJobUnderTheBathtubModel) {
  const SpotMarket market = testing::single_zone_market(BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0}));
  const Scenario scenario(market, testing::job(48.0, 5 * kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute));
  const auto hazard = run_replications(scenario, testing::policies("spot-only", "hazard"), {9, 0, 2000, 0});
  const auto daly = run_replications(scenario, testing::policies("spot-only", "daly"), {9, 0, 2000, 0});
  std::vector<double> diff;
  for (std::size_t i = 0; i < hazard.size(); ++i) diff.push_back(hazard[i].completion_hours - daly[i].completion_hours);
  EXPECT_LT(summarize(diff).ci_high, 0.0) << "hazard-aware checkpoints should finish sooner (paired, same preemptions)";
}

TEST(HazardCheckpoint, IsYoungForExponentialLifetimes) {
  const LifetimeDistribution exponential = ExponentialLifetime{10.0};
  testing::ObservationBuilder b;
  b.zones[0].lifetime = &exponential;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 0;
  b.obs.instance_age = 7 * kMillisPerHour;
  EXPECT_NEAR(static_cast<double>(make("hazard")->next_interval(b.build())),
              young_interval(static_cast<double>(b.job.checkpoint_write), 10.0 * kMillisPerHour), 1.0);
  b.obs.purchase = Purchase::kOnDemand;
  EXPECT_EQ(make("hazard")->next_interval(b.build()), kNever);
}

TEST(OnNoticeCheckpoint, OnlyEmergencyCheckpoints) {
  const auto p = make("on-notice");
  testing::ObservationBuilder b;
  EXPECT_EQ(p->next_interval(b.build()), kNever);
  EXPECT_TRUE(p->checkpoint_on_notice());
  EXPECT_TRUE(p->can_checkpoint());
}

}  // namespace
}  // namespace spotsim

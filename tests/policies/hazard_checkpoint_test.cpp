#include <gtest/gtest.h>

#include <cmath>

#include "policies/checkpoint_math.hpp"
#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"
#include "traces/lifetime_distribution.hpp"

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

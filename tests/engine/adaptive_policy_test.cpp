#include "policies/adaptive_policy.hpp"

#include <gtest/gtest.h>

#include "policy_test_support.hpp"
#include "traces/lifetime_distribution.hpp"

namespace spotsim {
namespace {

TEST(Adaptive, TakesSpotWhenItIsCheaperToFinish) {
  testing::ObservationBuilder b;
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
}

TEST(Adaptive, PrefersOnDemandWhenSpotIsPreemptedTooOftenToPay) {
  testing::ObservationBuilder b;
  b.zones[0].spot_price_per_hour = 2.5;  // only 17% cheaper...
  b.zones[0].spot_mtbf = 20 * kMillisPerMinute;  // ...and preempted every 20 minutes
  b.job.startup = 10 * kMillisPerMinute;
  AdaptivePolicy policy{AdaptiveSettings{}};
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
}

TEST(Adaptive, FallsBackToOnDemandWhenPreemptionsClusterAndReturnsAfterTheCooldown) {
  testing::ObservationBuilder b;
  AdaptiveSettings s;
  s.cluster = 3;
  s.window = 6 * kMillisPerHour;
  s.cooldown = 2 * kMillisPerHour;
  AdaptivePolicy policy{s};
  b.obs.elapsed = b.obs.now = 5 * kMillisPerHour;
  b.preemptions = {1 * kMillisPerHour, 3 * kMillisPerHour, 5 * kMillisPerHour};
  b.obs.spot_time = 5 * kMillisPerHour;
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_EQ(d.review_at, 7 * kMillisPerHour);  // the end of the cool-down
  // At the review, on on-demand: spot is still much cheaper, so it returns (hysteresis satisfied).
  b.obs.elapsed = b.obs.now = 7 * kMillisPerHour;
  b.obs.purchase = Purchase::kOnDemand;
  b.obs.zone = 0;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kSpot);
  // A second cluster doubles the cool-down.
  b.obs.purchase = Purchase::kNone;
  b.obs.elapsed = b.obs.now = 10 * kMillisPerHour;
  b.preemptions = {8 * kMillisPerHour, 9 * kMillisPerHour, 10 * kMillisPerHour};
  b.obs.preemptions = 6;
  Observation& obs = b.build();
  obs.preemptions = 6;
  const auto again = policy.decide(obs);
  EXPECT_EQ(again.purchase, Purchase::kOnDemand);
  EXPECT_EQ(again.review_at, 14 * kMillisPerHour);
}

TEST(Adaptive, AutomaticClusterThresholdFollowsTheLifetimeModel) {
  // Under the bathtub model ~42% of fresh instances die within 6 h, so 3 preemptions in 6 h are expected now
  // and then: the automatic threshold (F(6h)^k < 1%) is 6, and 3 preemptions do not trigger a fallback.
  testing::ObservationBuilder b;
  const LifetimeDistribution bathtub = BathtubLifetime({0.4198, 0.975, 0.372, 24.33, 25.0});
  b.zones[0].lifetime = &bathtub;
  b.obs.elapsed = b.obs.now = 5 * kMillisPerHour;  // idle after a preemption: no current zone
  b.preemptions = {1 * kMillisPerHour, 3 * kMillisPerHour, 5 * kMillisPerHour};
  AdaptivePolicy policy{AdaptiveSettings{}};
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kSpot);
  // Six in the window is more than the model explains.
  b.preemptions = {kMillisPerHour, 2 * kMillisPerHour, 3 * kMillisPerHour, 4 * kMillisPerHour,
                   4 * kMillisPerHour + 1, 5 * kMillisPerHour};
  AdaptivePolicy fresh{AdaptiveSettings{}};
  EXPECT_EQ(fresh.decide(b.build()).purchase, Purchase::kOnDemand);
}

TEST(Adaptive, DeadlineSafetyNetCommitsToOnDemand) {
  testing::ObservationBuilder b;
  b.job.deadline = 50 * kMillisPerHour;
  b.obs.elapsed = b.obs.now = 10 * kMillisPerHour;
  b.obs.progress = 10 * kMillisPerHour;
  // Slack = 40 h to go - (38 h of work + 5 min start-up + 1 min write; nothing to restore yet) = 1 h 54 min.
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  // The policy asks to be woken when the slack would reach the margin.
  EXPECT_EQ(d.review_at, b.obs.now + (40 * kMillisPerHour - 38 * kMillisPerHour - 6 * kMillisPerMinute - kMillisPerHour));
  b.obs.elapsed = b.obs.now = 11 * kMillisPerHour;  // no progress for an hour: slack below the margin
  const auto late = policy.decide(b.build());
  EXPECT_EQ(late.purchase, Purchase::kOnDemand);
  EXPECT_EQ(late.review_at, kNever);
  b.zones[0].spot_price_per_hour = 0.01;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand) << "committed for good";
}

TEST(Adaptive, WaitsForSpotWithoutADeadlineOnlyUpToMaxWait) {
  testing::ObservationBuilder b;
  b.zones[0].spot_available = false;
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, 30 * kMillisPerMinute);
  b.obs.elapsed = b.obs.now = 30 * kMillisPerMinute;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
}

}  // namespace
}  // namespace spotsim

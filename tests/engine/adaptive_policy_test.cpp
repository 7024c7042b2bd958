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
  b.obs.progress = b.obs.committed = 10 * kMillisPerHour;
  // On-demand from here needs 5 min start-up + 1 min restore + 38 h: slack 1 h 54 min; keeping one changeover
  // (6 min) and the 1 min write a later move off spot needs aside, the last safe moment is 1 h 47 min away.
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.review_at, b.obs.now + kMillisPerHour + 47 * kMillisPerMinute);
  b.obs.elapsed = b.obs.now = 11 * kMillisPerHour + 47 * kMillisPerMinute;  // no progress since
  const auto late = policy.decide(b.build());
  EXPECT_EQ(late.purchase, Purchase::kOnDemand);
  EXPECT_EQ(late.review_at, kNever);
  b.zones[0].spot_price_per_hour = 0.01;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand) << "committed for good";
}

// Deadline pacing on a recorded trace: spot available 80% of the time, lossless progress, d = 12 min.
testing::ObservationBuilder pacing(Millis elapsed, Millis progress) {
  auto b = testing::cant_be_late(64 * kMillisPerHour);
  b.zones[0].spot_available = false;
  b.zones[0].spot_availability = 0.8;
  b.zones[0].spot_mtbf = kNever;  // no preemption overhead: the factor is 1/availability
  b.obs.elapsed = b.obs.now = elapsed;
  b.obs.progress = b.obs.committed = progress;
  return b;
}

TEST(Adaptive, WaitsThroughASpotGapWhileTheExpectedSpotPaceMeetsTheDeadline) {
  // 10 h done at 10 h: 38 h to go at the spot pace, 54 h left less one 12-minute changeover.
  auto b = pacing(10 * kMillisPerHour, 10 * kMillisPerHour);
  b.obs.spot_time = 10 * kMillisPerHour;
  b.obs.wait_time = 0;
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  // Availability updated by 10 h of spot and no waiting: (0.8 x 6 + 10) / 16; the deficit turns positive
  // after waiting for its magnitude.
  const double a = (0.8 * 6 + 10) / 16.0;
  const double deficit_h = 38.0 / a - (54.0 - 0.2);
  EXPECT_NEAR(to_hours(d.review_at - b.obs.now), -deficit_h, 1e-3);
}

TEST(Adaptive, FillsASpotGapWithOnDemandWhenTheSpotPaceFallsBehind) {
  auto b = pacing(20 * kMillisPerHour, 12 * kMillisPerHour);  // 36 h to go at pace 1.25: 45 h > 44 h left
  AdaptivePolicy policy{AdaptiveSettings{}};
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
  // Once on on-demand and comfortably ahead (deficit below -2d), it releases the instance and waits.
  auto ahead = pacing(20 * kMillisPerHour, 20 * kMillisPerHour);
  ahead.obs.purchase = Purchase::kOnDemand;
  ahead.obs.phase = Phase::kComputing;
  ahead.obs.zone = 0;
  EXPECT_EQ(policy.decide(ahead.build()).purchase, Purchase::kNone);
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

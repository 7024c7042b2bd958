#include <gtest/gtest.h>

#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

std::unique_ptr<SelectionPolicy> up() { return builtin_policy_registry().selection_factory("uniform-progress")(); }

// 48 h of work by a 64 h deadline: the line ep(t) = 0.75 t. Changeover d = 12 min, lossless.
testing::ObservationBuilder setting(Millis elapsed, Millis progress) {
  auto b = testing::cant_be_late(64 * kMillisPerHour);
  b.obs.elapsed = b.obs.now = elapsed;
  b.obs.progress = b.obs.committed = progress;
  return b;
}

TEST(UniformProgress, TakesSpotWheneverObtainableEvenWhenBehind) {
  auto b = setting(20 * kMillisPerHour, 5 * kMillisPerHour);  // line at 15 h
  EXPECT_EQ(up()->decide(b.build()).purchase, Purchase::kSpot);
}

TEST(UniformProgress, IdleAndBehindTheLineGoesOnDemand) {
  auto b = setting(20 * kMillisPerHour, 14 * kMillisPerHour);
  b.zones[0].spot_available = false;
  EXPECT_EQ(up()->decide(b.build()).purchase, Purchase::kOnDemand);
}

TEST(UniformProgress, IdleAndAheadWaitsUntilTheLineCatchesUp) {
  auto b = setting(20 * kMillisPerHour, 18 * kMillisPerHour);
  b.zones[0].spot_available = false;
  const auto d = up()->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, 24 * kMillisPerHour);  // 0.75 t = 18 h at t = 24 h
}

TEST(UniformProgress, HysteresisKeepsOnDemandUntilAheadByTwoChangeovers) {
  auto b = setting(20 * kMillisPerHour, 15 * kMillisPerHour);  // exactly on the line, on on-demand
  b.obs.purchase = Purchase::kOnDemand;
  b.obs.phase = Phase::kComputing;
  b.obs.zone = 0;
  const auto d = up()->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand) << "spot is obtainable, but the hysteresis holds";
  // cp + x = 0.75 (t + x + 24 min): x = 0.75 * 0.4 h / 0.25 = 1.2 h.
  EXPECT_NEAR(static_cast<double>(d.review_at - b.obs.now), 1.2 * kMillisPerHour, 2.0);
  b.obs.elapsed = b.obs.now = b.obs.now + 72 * kMillisPerMinute;
  b.obs.progress = b.obs.committed = 16 * kMillisPerHour + 12 * kMillisPerMinute + 1;
  EXPECT_EQ(up()->decide(b.build()).purchase, Purchase::kSpot);
}

TEST(UniformProgress, SafetyNetCommitsToOnDemand) {
  auto b = setting(40 * kMillisPerHour, 23 * kMillisPerHour + 40 * kMillisPerMinute);
  // 24 h left; on-demand needs 12 min + 24 h 20 min: the slack is gone.
  auto policy = up();
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand);
  EXPECT_EQ(policy->decide(b.build()).review_at, kNever);
}

}  // namespace
}  // namespace spotsim

// Survival learning for the cost-aware policy: Kaplan-Meier mean residual life against answers worked out by hand
// and against an exponential law, and per-zone learning with shrinkage toward the pooled estimate.
#include "policies/zone_survival.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "policy_test_support.hpp"

namespace spotsim {
namespace {

TEST(MeanResidualLife, UncensoredRunsGiveTheEmpiricalMeanAndConditionalMean) {
  const std::vector<LifetimeRecord> runs = {{1.0, true}, {2.0, true}, {3.0, true}};
  EXPECT_NEAR(mean_residual_life_hours(runs, 0.0, 5.0), 2.0, 1e-12);
  // Past 1.5 h only the 2 h and 3 h runs remain: (0.5 + 1.5) / 2.
  EXPECT_NEAR(mean_residual_life_hours(runs, 1.5, 5.0), 1.0, 1e-12);
}

TEST(MeanResidualLife, CensoredRunsFollowKaplanMeier) {
  // Textbook case: S = 1 on [0, 1), 2/3 on [1, 3), 0 after (the run censored at 2 h stays at risk until then).
  const std::vector<LifetimeRecord> runs = {{1.0, true}, {2.0, false}, {3.0, true}};
  EXPECT_NEAR(mean_residual_life_hours(runs, 0.0, 5.0), 1.0 + 2.0 * 2.0 / 3.0, 1e-12);
}

TEST(MeanResidualLife, BeyondTheLongestRecordTheExponentialTailTakesOver) {
  const std::vector<LifetimeRecord> censored = {{5.0, false}};
  EXPECT_NEAR(mean_residual_life_hours(censored, 2.0, 3.0), 3.0 + 3.0, 1e-12);
  EXPECT_NEAR(mean_residual_life_hours(censored, 5.0, 3.0), 3.0, 1e-12) << "memoryless tail";
  EXPECT_NEAR(mean_residual_life_hours({}, 0.0, 4.0), 4.0, 1e-12) << "nothing seen: the tail mean";
}

TEST(MeanResidualLife, RecoversAnExponentialLawsMeanAtAnyAge) {
  // 4000 lifetimes at the quantiles of an exponential law of mean 4 h: its residual life is 4 h at every age.
  std::vector<LifetimeRecord> runs;
  const int n = 4000;
  for (int i = 0; i < n; ++i) runs.push_back({-4.0 * std::log(1.0 - (i + 0.5) / n), true});
  EXPECT_NEAR(mean_residual_life_hours(runs, 0.0, 4.0), 4.0, 0.05);
  EXPECT_NEAR(mean_residual_life_hours(runs, 4.0, 4.0), 4.0, 0.2);
  EXPECT_NEAR(mean_residual_life_hours(runs, 8.0, 4.0), 4.0, 0.4);
}

// Zone 0 is up 30 min then down 30 min, zone 1 up 3 h then down 30 min, watched every 10 min for `hours`.
ZoneSurvival watch(SurvivalPrior prior, int hours) {
  testing::ObservationBuilder b;
  b.zones = {ZoneView{}, ZoneView{}};
  ZoneSurvival survival(prior);
  for (Millis t = 0; t <= hours * kMillisPerHour; t += 10 * kMillisPerMinute) {
    b.obs.now = b.obs.elapsed = t;
    b.zones[0].spot_available = t % kMillisPerHour < 30 * kMillisPerMinute;
    b.zones[1].spot_available = t % (210 * kMillisPerMinute) < 180 * kMillisPerMinute;
    survival.observe(b.build());
  }
  return survival;
}

TEST(ZoneSurvival, LearnsEachZonesRunLengthsFromItsOwnObservations) {
  const ZoneSurvival s = watch(SurvivalPrior{}, 21);  // ends at 21 h: both zones just came back (age 0)
  EXPECT_EQ(s.ended_runs(0), 21);
  EXPECT_EQ(s.ended_runs(1), 6);
  ASSERT_TRUE(s.up(0));
  ASSERT_TRUE(s.up(1));
  const Millis t = 21 * kMillisPerHour;
  EXPECT_LT(s.expected_remaining(0, t), kMillisPerHour);
  EXPECT_GT(s.expected_remaining(1, t), 2 * kMillisPerHour);
  EXPECT_LT(s.expected_remaining(1, t), 3 * kMillisPerHour) << "shrunk toward the pooled estimate";
}

TEST(ZoneSurvival, StrongShrinkageGivesEveryZoneThePooledEstimate) {
  const ZoneSurvival s = watch(SurvivalPrior{2 * kMillisPerHour, 1e6}, 21);
  const Millis t = 21 * kMillisPerHour;
  EXPECT_NEAR(static_cast<double>(s.expected_remaining(0, t)), static_cast<double>(s.expected_remaining(1, t)),
              0.001 * static_cast<double>(s.expected_remaining(1, t)));
}

TEST(ZoneSurvival, NothingSeenYetGivesThePrior) {
  const ZoneSurvival s = watch(SurvivalPrior{5 * kMillisPerHour, 3.0}, 0);
  EXPECT_EQ(s.expected_remaining(0, 0), 5 * kMillisPerHour);
  EXPECT_EQ(s.ended_runs(1), 0);
}

}  // namespace
}  // namespace spotsim

#include "policies/adaptive_policy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "model/market/lifetime_distribution.hpp"
#include "policies/policy_params.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

TEST(Adaptive, TakesSpotWhenItIsCheaperToFinish) {
  testing::ObservationBuilder b;
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
}

TEST(Adaptive, PrefersOnDemandWhenSpotIsPreemptedTooOftenToPay) {
  // Only 17% cheaper and preempted every 20 minutes, with 10-minute start-ups: on-demand. For a zone with a
  // lifetime model the model's mean time between preemptions is known by construction.
  const LifetimeDistribution every_20_minutes = ExponentialLifetime{1.0 / 3.0};
  testing::ObservationBuilder b;
  b.zones[0].spot_price_per_hour = 2.5;
  b.zones[0].spot_mtbf = 20 * kMillisPerMinute;
  b.zones[0].lifetime = &every_20_minutes;
  b.job.startup = 10 * kMillisPerMinute;
  AdaptivePolicy policy{AdaptiveSettings{}};
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
  // A recorded zone: the same from a fitted prior the user gives.
  testing::ObservationBuilder r = b;
  r.zones[0].lifetime = nullptr;
  AdaptivePolicy fitted{AdaptiveSettings::from(PolicyParams::parse("adaptive:prior_mtbf=20m", "--policy"))};
  EXPECT_EQ(fitted.decide(r.build()).purchase, Purchase::kOnDemand);
}

TEST(Adaptive, NeverReadsARecordingsLongRunStatistics) {
  // Behaviour change (honesty): for a recorded zone, spot_mtbf and spot_availability are the statistics of the
  // whole recording, future included, so the policy ignores them. Before, the 20-minute spot_mtbf below sent this
  // job to on-demand; now only this run's own record and the prior count.
  testing::ObservationBuilder b;
  b.zones[0].spot_price_per_hour = 2.0;
  b.job.startup = 10 * kMillisPerMinute;
  for (const Millis mtbf : {20 * kMillisPerMinute, 100 * kMillisPerHour, kNever}) {
    for (const double availability : {0.05, 0.5, 1.0}) {
      for (const bool available : {true, false}) {
        b.zones[0].spot_mtbf = mtbf;
        b.zones[0].spot_availability = availability;
        b.zones[0].spot_available = available;
        b.job.deadline = 60 * kMillisPerHour;
        AdaptivePolicy policy{AdaptiveSettings{}};
        const auto d = policy.decide(b.build());
        EXPECT_EQ(d.purchase, available ? Purchase::kSpot : Purchase::kNone) << mtbf << " " << availability;
      }
    }
  }
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
  b.preemptions = {kMillisPerHour,     2 * kMillisPerHour,     3 * kMillisPerHour,
                   4 * kMillisPerHour, 4 * kMillisPerHour + 1, 5 * kMillisPerHour};
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

// Spot gaps on a recorded trace (behaviour change: the expected-pace rule gave way to the slack reserve, which
// meets the same deadlines and costs less on the Can't Be Late traces; experiments/adaptive/README.md). Lossless
// progress, d = 12 min: the slack beyond the safety net's margin is sigma = T - W - 2d.
testing::ObservationBuilder gap(Millis elapsed, Millis progress) {
  auto b = testing::cant_be_late(64 * kMillisPerHour);
  b.zones[0].spot_available = false;
  b.obs.elapsed = b.obs.now = elapsed;
  b.obs.progress = b.obs.committed = progress;
  return b;
}

TEST(Adaptive, WaitsThroughASpotGapWhileTheSlackExceedsTheReserve) {
  // 10 h done at 10 h: sigma = 54 - 38 - 0.4 = 15.6 h; the reserve is 0.15 x 38 h = 5.7 h.
  auto b = gap(10 * kMillisPerHour, 10 * kMillisPerHour);
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_TRUE(d.wake_on_spot);
  // Waiting consumes sigma at rate 1: ask again when it meets the reserve.
  EXPECT_NEAR(to_hours(d.review_at - b.obs.now), 15.6 - 5.7, 1e-6);
}

TEST(Adaptive, FillsAGapWithOnDemandOnceTheSlackIsDownToTheReserveAndStaysUntilSpotReturns) {
  // 10 h done at 22 h: sigma = 42 - 38 - 0.4 = 3.6 h < 5.7 h.
  auto b = gap(22 * kMillisPerHour, 10 * kMillisPerHour);
  AdaptivePolicy policy{AdaptiveSettings{}};
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_TRUE(d.wake_on_spot) << "the engine must wake the policy when spot returns";
  // On on-demand, even far ahead of the reserve, it does not go back to waiting (no churn) ...
  auto ahead = gap(22 * kMillisPerHour, 21 * kMillisPerHour);
  ahead.obs.purchase = Purchase::kOnDemand;
  ahead.obs.phase = Phase::kComputing;
  ahead.obs.zone = 0;
  const auto stay = policy.decide(ahead.build());
  EXPECT_EQ(stay.purchase, Purchase::kOnDemand);
  EXPECT_TRUE(stay.wake_on_spot);
  // ... and leaves as soon as spot returns while the slack is plentiful.
  ahead.zones[0].spot_available = true;
  EXPECT_EQ(policy.decide(ahead.build()).purchase, Purchase::kSpot);
}

TEST(Adaptive, WithScarceSlackLeavesOnDemandOnlyForSpotThatHasHeld) {
  AdaptivePolicy policy{AdaptiveSettings{}};
  auto b = gap(22 * kMillisPerHour, 10 * kMillisPerHour);
  ASSERT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
  b.obs.purchase = Purchase::kOnDemand;
  b.obs.phase = Phase::kComputing;
  b.obs.zone = 0;
  // Spot returns at 23 h (the engine wakes the policy): sigma = 41 - 37 - 0.4 = 3.6 h < 0.15 x 37 h.
  b.obs.elapsed = b.obs.now = 23 * kMillisPerHour;
  b.obs.progress = b.obs.committed = 11 * kMillisPerHour;
  b.zones[0].spot_available = true;
  const auto wait_for_it = policy.decide(b.build());
  EXPECT_EQ(wait_for_it.purchase, Purchase::kOnDemand);
  EXPECT_EQ(wait_for_it.review_at, b.obs.now + 20 * kMillisPerMinute);
  // Still there 20 minutes later: leave.
  b.obs.elapsed = b.obs.now = 23 * kMillisPerHour + 20 * kMillisPerMinute;
  b.obs.progress = b.obs.committed = 11 * kMillisPerHour + 20 * kMillisPerMinute;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kSpot);
}

// The reserve and the confirmation follow a lossless job's changeover d: 0.15 sqrt(d / 0.2 h) and 5/3 d (the former
// constants at d = 0.2 h, the tests above). A job that can lose progress keeps those constants (the regress
// baselines' checkpointed configurations guard it).
TEST(Adaptive, ReserveAndConfirmationFollowTheChangeover) {
  AdaptivePolicy policy{AdaptiveSettings{}};
  // d = 72 s (0.02 h): 10 h done at 10 h, sigma = 54 - 38 - 0.04 = 15.96 h; reserve 0.15 x sqrt(0.1) x 38 h.
  auto b = gap(10 * kMillisPerHour, 10 * kMillisPerHour);
  b.job.startup = 72 * kMillisPerSecond;
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_NEAR(to_hours(d.review_at - b.obs.now), 15.96 - 0.15 * std::sqrt(0.1) * 38.0, 1e-6);
  // Slack scarce (10 h done at 14 h, deadline 52.2 h: sigma = 38.2 - 38 - 0.04 = 0.16 h, below the reserve): on
  // on-demand, spot that returns is taken once it has held 5/3 d = 2 min.
  auto scarce = gap(14 * kMillisPerHour, 10 * kMillisPerHour);
  scarce.job.startup = 72 * kMillisPerSecond;
  scarce.job.deadline = 52 * kMillisPerHour + 12 * kMillisPerMinute;
  ASSERT_EQ(policy.decide(scarce.build()).purchase, Purchase::kOnDemand);
  scarce.obs.purchase = Purchase::kOnDemand;
  scarce.obs.phase = Phase::kComputing;
  scarce.obs.zone = 0;
  scarce.zones[0].spot_available = true;
  const auto hold_on = policy.decide(scarce.build());
  EXPECT_EQ(hold_on.purchase, Purchase::kOnDemand);
  EXPECT_EQ(hold_on.review_at, scarce.obs.now + 2 * kMillisPerMinute);
}

// Asked only at ticks (the Can't Be Late mode), the confirmation keeps the whole ticks that fit in 5/3 d: none for
// d = 72 s or 180 s on 600 s ticks (waiting one would hold the job a whole tick on on-demand beside available spot),
// one for d = 360 s, three 195 s ticks for d = 360 s.
TEST(Adaptive, ConfirmationKeepsOnlyTheWholeTicksThatFitInIt) {
  const auto on_demand_when_spot_returns = [](Millis startup, Millis tick) {
    auto scarce = gap(14 * kMillisPerHour, 10 * kMillisPerHour);
    scarce.job.startup = startup;
    scarce.job.deadline = 53 * kMillisPerHour;  // sigma about 0.9 h: below the reserve, above a tick
    scarce.obs.decision_tick = tick;
    AdaptivePolicy policy{AdaptiveSettings{}};
    EXPECT_EQ(policy.decide(scarce.build()).purchase, Purchase::kOnDemand);
    scarce.obs.purchase = Purchase::kOnDemand;
    scarce.obs.phase = Phase::kComputing;
    scarce.obs.zone = 0;
    scarce.zones[0].spot_available = true;
    const auto d = policy.decide(scarce.build());
    return std::make_pair(d.purchase, d.review_at - scarce.obs.now);
  };
  EXPECT_EQ(on_demand_when_spot_returns(72 * kMillisPerSecond, 600 * kMillisPerSecond).first, Purchase::kSpot);
  EXPECT_EQ(on_demand_when_spot_returns(180 * kMillisPerSecond, 600 * kMillisPerSecond).first, Purchase::kSpot);
  const auto one_tick = on_demand_when_spot_returns(360 * kMillisPerSecond, 600 * kMillisPerSecond);
  EXPECT_EQ(one_tick.first, Purchase::kOnDemand);
  EXPECT_EQ(one_tick.second, 600 * kMillisPerSecond);
  const auto three_ticks = on_demand_when_spot_returns(360 * kMillisPerSecond, 195 * kMillisPerSecond);
  EXPECT_EQ(three_ticks.first, Purchase::kOnDemand);
  EXPECT_EQ(three_ticks.second, 585 * kMillisPerSecond);
  // Without ticks (the event engine) the confirmation is 5/3 d itself.
  const auto event = on_demand_when_spot_returns(72 * kMillisPerSecond, 0);
  EXPECT_EQ(event.first, Purchase::kOnDemand);
  EXPECT_EQ(event.second, 120 * kMillisPerSecond);
}

TEST(Adaptive, PatienceWaitsOutShortGapsWhenSlackIsScarce) {
  AdaptiveSettings s;
  s.patience = 15 * kMillisPerMinute;
  AdaptivePolicy policy{s};
  // Preempted at 22 h with scarce slack: wait up to 15 minutes for spot, then fill.
  auto b = gap(22 * kMillisPerHour, 10 * kMillisPerHour);
  b.zones[0].spot_available = true;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 0;
  b.obs.elapsed = b.obs.now = 21 * kMillisPerHour;
  ASSERT_EQ(policy.decide(b.build()).purchase, Purchase::kSpot);
  b.zones[0].spot_available = false;
  b.obs.purchase = Purchase::kNone;
  b.obs.zone = -1;
  b.obs.elapsed = b.obs.now = 22 * kMillisPerHour;
  const auto d = policy.decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, b.obs.now + 15 * kMillisPerMinute);
  b.obs.elapsed = b.obs.now = 22 * kMillisPerHour + 15 * kMillisPerMinute;
  EXPECT_EQ(policy.decide(b.build()).purchase, Purchase::kOnDemand);
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

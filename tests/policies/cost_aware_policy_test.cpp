// The cost-aware multi-region policy on hand-built observations: the zone it prices cheapest, when a move is not
// worth its egress, that it keeps a running spot instance, learns which zone lasts, the deadline, and hysteresis.
#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "multi_region_observations.hpp"

namespace spotsim {
namespace {

using testing::at;
using testing::selection_policy;
using testing::two_regions;

TEST(CostAware, TakesTheCheapestSpotAtTheStart) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  const auto d = selection_policy("cost-aware")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 2);
  EXPECT_EQ(d.review_at, 10 * kMillisPerMinute) << "reviews to keep observing the zones";
}

TEST(CostAware, WaitsForACheaperZoneExpectedBackSoonInsteadOfPayingForAMove) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.obs.committed = b.obs.progress = 10 * kMillisPerHour;
  testing::place_state(b, 0, 10 * kMillisPerMinute, 1.0);
  auto policy = selection_policy("cost-aware");
  // Zone 0 (0.85 USD/h, the state's region) flaps: down 10 min in every hour, seen by reviews every 10 min. Zone 1
  // and the other region stay up; the other region costs a transfer and 1 USD of egress.
  for (Millis t = 0; t <= 5 * kMillisPerHour; t += 10 * kMillisPerMinute) {
    at(b, t);
    b.zones[0].spot_available = t % kMillisPerHour != 50 * kMillisPerMinute;
    b.zones[2].spot_price_per_hour = 1.0;
    b.zones[3].spot_price_per_hour = 1.1;
    policy->decide(b.build());
  }
  at(b, 5 * kMillisPerHour + 50 * kMillisPerMinute);
  b.zones[0].spot_available = false;
  const auto d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone) << "zone 0 is expected back within about 10 min";
  EXPECT_LE(d.review_at, b.obs.now + 10 * kMillisPerMinute);
  // A job short of slack does not wait: it takes what is there.
  b.job.deadline = 10 * kMillisPerHour + 30 * kMillisPerHour + 6 * kMillisPerHour;
  EXPECT_NE(policy->decide(b.build()).purchase, Purchase::kNone);
}

TEST(CostAware, MovesARunningSpotInstanceOnlyWhenTheMovePays) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 1;  // 1.2 USD/h; zone 2 offers 0.8
  b.obs.phase = Phase::kComputing;
  b.obs.progress = b.obs.committed = 10 * kMillisPerHour;
  testing::place_state(b, 1, 10 * kMillisPerMinute, 1.0);
  b.zones[0].spot_available = false;  // at 0.85 in the same region it would be worth a move already
  // Expected run 2 h (the prior): zone 2 costs (0.8 x (6 min + 10 min + 2 h) + 1) / 2 h = 1.36 USD/h > 0.9 x 1.2.
  auto d = selection_policy("cost-aware")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 1);
  // Runs expected to last 20 h: (0.8 x 20.27 h + 1) / 20 h = 0.86 USD/h, below 0.9 x 1.2: it moves.
  EXPECT_EQ(selection_policy("cost-aware:prior_up=20h")->decide(b.build()).zone, 2);
  // Not for a gain under move_gain, nor during a start-up.
  EXPECT_EQ(selection_policy("cost-aware:prior_up=20h,move_gain=0.5")->decide(b.build()).zone, 1);
  b.obs.phase = Phase::kStarting;
  EXPECT_EQ(selection_policy("cost-aware:prior_up=20h")->decide(b.build()).zone, 1);
}

TEST(CostAware, WaitsRatherThanPayAnEgressTheExpectedRunCannotRecoup) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.obs.committed = b.obs.progress = 10 * kMillisPerHour;
  b.zones[0].spot_available = b.zones[1].spot_available = false;
  // The state's own zones are dear here (2 USD/h), so waiting for them to return is never the better plan.
  b.zones[0].spot_price_per_hour = b.zones[1].spot_price_per_hour = 2.0;
  // Expected run 2 h (the prior): zone 2 costs (0.8 x (6 min + 10 min + 2 h) + egress) / 2 h per useful hour.
  testing::place_state(b, 0, 10 * kMillisPerMinute, 100.0);
  EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).purchase, Purchase::kNone) << "~51 USD/h > 3";
  testing::place_state(b, 0, 10 * kMillisPerMinute, 1.0);
  const auto d = selection_policy("cost-aware")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot) << "~1.4 USD/h < 3";
  EXPECT_EQ(d.zone, 2);
  // 50 USD of egress: not worth a 2 h run (~26 USD/h), worth the whole remaining 38 h when runs are expected to
  // last 200 h: (0.8 x 38.3 h + 50) / 38 h = 2.1 USD/h.
  testing::place_state(b, 0, 10 * kMillisPerMinute, 50.0);
  EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).purchase, Purchase::kNone);
  EXPECT_EQ(selection_policy("cost-aware:prior_up=200h")->decide(b.build()).zone, 2);
}

TEST(CostAware, PrefersTheZoneWhoseRunsItHasSeenLastLonger) {
  // Zone 0 flaps (up 20 min, down 10 min), zone 1 stays up; at equal prices the policy, having watched both
  // while waiting, takes zone 1 although zone 0 comes first.
  auto b = two_regions();
  b.job.deadline = 400 * kMillisPerHour;
  b.zones[1].spot_price_per_hour = b.zones[0].spot_price_per_hour;
  b.zones[2].spot_available = b.zones[3].spot_available = false;
  auto policy = selection_policy("cost-aware");
  for (Millis t = 0; t <= 6 * kMillisPerHour; t += 10 * kMillisPerMinute) {
    at(b, t);
    b.zones[0].spot_available = t % (30 * kMillisPerMinute) < 20 * kMillisPerMinute;
    policy->decide(b.build());  // the job stays waiting: only the observations matter here
  }
  EXPECT_TRUE(b.zones[0].spot_available);
  EXPECT_EQ(policy->decide(b.build()).zone, 1);
  // A fresh policy knows nothing yet and takes the first of the equal zones.
  EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).zone, 0);
}

TEST(CostAware, GoesOnDemandInTheStateRegionWhenTheDeadlineRequires) {
  auto b = two_regions();
  b.job.deadline = 60 * kMillisPerHour;
  b.zones[2].on_demand_price_per_hour = 2.0;
  testing::place_state(b, 0, 10 * kMillisPerMinute, 1.0);
  for (auto& z : b.zones) z.spot_available = false;
  auto policy = selection_policy("cost-aware:pace=0");  // waits down to the reserve
  at(b, kMillisPerHour);
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kNone);
  at(b, 13 * kMillisPerHour);
  const auto d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_EQ(b.zones[static_cast<std::size_t>(d.zone)].region, 0);
}

TEST(CostAware, WithPaceKeepsTheSlackUniformProgressWouldKeep) {
  // 48 h of work, 60 h deadline: uniform progress keeps (60 h - t) x 12 / 60 of slack; at 2 h, 11.6 h.
  auto b = two_regions();
  b.job.deadline = 60 * kMillisPerHour;
  for (auto& z : b.zones) z.spot_available = false;
  at(b, 2 * kMillisPerHour);
  b.obs.progress = b.obs.committed = 2 * kMillisPerHour;  // slack 58 h - 46 h 6 min - 7 min = 11.8 h: wait
  EXPECT_EQ(selection_policy("cost-aware:pace=1")->decide(b.build()).purchase, Purchase::kNone);
  b.obs.progress = b.obs.committed = 0;  // slack 9.8 h: fill the gap with on-demand
  EXPECT_EQ(selection_policy("cost-aware:pace=1")->decide(b.build()).purchase, Purchase::kOnDemand);
  EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).purchase, Purchase::kNone) << "default: reserve 7.2 h";
}

TEST(CostAware, LeavesOnDemandForSpotOnlyWithEnoughSlack) {
  for (const bool enough : {false, true}) {
    auto b = two_regions();
    // On on-demand at 10 h with 10 h saved: leaving needs 5 min start-up + 1 min restore + 38 h + 7 min margin,
    // leaving 20 min of slack (< leave_slack = 30 min) or plenty.
    b.job.deadline = (enough ? 60 * kMillisPerHour : 48 * kMillisPerHour + 33 * kMillisPerMinute);
    at(b, 10 * kMillisPerHour);
    b.obs.committed = b.obs.progress = 10 * kMillisPerHour;
    b.obs.purchase = Purchase::kOnDemand;
    b.obs.phase = Phase::kComputing;
    b.obs.zone = 0;
    const auto d = selection_policy("cost-aware")->decide(b.build());
    EXPECT_EQ(d.purchase, enough ? Purchase::kSpot : Purchase::kOnDemand) << enough;
    if (!enough) {
      EXPECT_TRUE(d.wake_on_spot);
      // With leave_slack=0s the 20 min of slack are enough.
      EXPECT_EQ(selection_policy("cost-aware:leave_slack=0s")->decide(b.build()).purchase, Purchase::kSpot);
    }
  }
}

TEST(CostAware, FillsGapsWithOnDemandBelowTheReserveThenReturnsToSpot) {
  auto b = two_regions();
  b.job.deadline = 60 * kMillisPerHour;
  for (auto& z : b.zones) z.spot_available = false;
  auto policy = selection_policy("cost-aware:pace=0");
  at(b, 4 * kMillisPerHour);  // slack 56 h - 48 h 12 min = 7.8 h > reserve 0.15 x 48 h = 7.2 h: wait
  auto d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, 4 * kMillisPerHour + 10 * kMillisPerMinute);
  at(b, 5 * kMillisPerHour);  // 6.8 h < 7.2 h: on-demand for the gap, watching for spot
  d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_TRUE(d.wake_on_spot);
  b.obs.purchase = Purchase::kOnDemand;
  b.obs.zone = d.zone;
  b.obs.phase = Phase::kComputing;
  at(b, 6 * kMillisPerHour);
  b.obs.progress = b.obs.committed = kMillisPerHour;
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand) << "never back to an idle wait";
  b.zones[3].spot_available = true;
  d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot) << "not committed: spot once it returns";
  EXPECT_EQ(d.zone, 3);
}

TEST(CostAware, SkipsAZoneWhoseTransferTheDeadlineCannotAbsorb) {
  auto b = two_regions();
  b.job.work = 10 * kMillisPerHour;
  b.job.deadline = 12 * kMillisPerHour;
  testing::place_state(b, 0, 3 * kMillisPerHour, 0.0);
  b.zones[0].spot_available = b.zones[1].spot_available = false;
  EXPECT_NE(selection_policy("cost-aware")->decide(b.build()).purchase, Purchase::kSpot);
  EXPECT_EQ(selection_policy("cost-aware:pace=0")->decide(b.build()).purchase, Purchase::kNone);
  testing::place_state(b, 0, 30 * kMillisPerMinute, 0.0);
  EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).zone, 2) << "a 30 min transfer fits";
}

TEST(CostAware, IgnoresTheRecordingsLongRunStatistics) {
  // ZoneView's spot_mtbf and spot_availability summarise the whole recording, the future of the replayed window
  // included: the policy must decide the same whatever they say.
  auto plain = two_regions();
  auto skewed = two_regions();
  for (std::size_t z = 0; z < skewed.zones.size(); ++z) {
    skewed.zones[z].spot_mtbf = z == 1 ? 1000 * kMillisPerHour : kMillisPerMinute;
    skewed.zones[z].spot_availability = z == 1 ? 1.0 : 0.01;
  }
  auto a = selection_policy("cost-aware");
  auto b = selection_policy("cost-aware");
  for (auto* builder : {&plain, &skewed}) builder->job.deadline = 70 * kMillisPerHour;
  for (int step = 0; step < 100; ++step) {
    for (auto* builder : {&plain, &skewed}) {
      at(*builder, step * 7 * kMillisPerMinute);
      for (std::size_t z = 0; z < builder->zones.size(); ++z) {
        builder->zones[z].spot_available = (step / (z + 2)) % 3 != 0;
      }
    }
    const auto da = a->decide(plain.build());
    const auto db = b->decide(skewed.build());
    ASSERT_EQ(da.purchase, db.purchase) << step;
    ASSERT_EQ(da.zone, db.zone) << step;
    for (auto* builder : {&plain, &skewed}) {
      builder->obs.purchase = da.purchase;
      builder->obs.zone = da.zone;
    }
  }
}

TEST(CostAware, SpendsTightSlackOnlyOnMovesWhoseExpectedRunCanAffordTheChangeover) {
  // On spot in zone 1 (1.2 USD/h) at 10 h with 38 h of work left; zone 2 (other region) offers 0.3 USD/h for a
  // 10 min transfer and 1 USD. With the prior's 2 h run the move costs (0.3 x 2.27 h + 1) / 2 h = 0.84 USD/h, well
  // below 0.9 x 1.2; but it spends 16 min of slack per 2 h run, a rate that over 38 h needs 5.1 h of slack.
  for (const bool loose : {false, true}) {
    auto b = two_regions();
    b.job.deadline = loose ? 70 * kMillisPerHour : 51 * kMillisPerHour;  // ~21.7 h or ~2.7 h of slack
    at(b, 10 * kMillisPerHour);
    b.obs.purchase = Purchase::kSpot;
    b.obs.zone = 1;
    b.obs.phase = Phase::kComputing;
    b.obs.progress = b.obs.committed = 10 * kMillisPerHour;
    testing::place_state(b, 1, 10 * kMillisPerMinute, 1.0);
    b.zones[0].spot_available = false;
    b.zones[2].spot_price_per_hour = 0.3;
    EXPECT_EQ(selection_policy("cost-aware")->decide(b.build()).zone, loose ? 2 : 1) << loose;
    // Without the rule (slack_rate=0) the tight job moves too; with runs expected to last 20 h it can afford it.
    EXPECT_EQ(selection_policy("cost-aware:slack_rate=0")->decide(b.build()).zone, 2) << loose;
    EXPECT_EQ(selection_policy("cost-aware:prior_up=20h")->decide(b.build()).zone, 2) << loose;
  }
}

TEST(CostAware, WaitsOutASpotPriceCloserToOnDemandThanToSpotWhileTheSlackLasts) {
  // Off spot at the start; only zone 1 has spot, at 2.0 USD/h against 0.8 for the cheapest zone (down) and 3.0
  // on demand. The cheaper zones' return is made unknowable (prior_down=1000h) so that only the premium rule acts.
  auto b = two_regions();
  b.zones[0].spot_available = b.zones[2].spot_available = b.zones[3].spot_available = false;
  b.zones[1].spot_price_per_hour = 2.0;
  b.job.deadline = 70 * kMillisPerHour;
  EXPECT_EQ(selection_policy("cost-aware:prior_down=1000h")->decide(b.build()).purchase, Purchase::kNone);
  EXPECT_EQ(selection_policy("cost-aware:prior_down=1000h,premium=0")->decide(b.build()).zone, 1) << "rule off";
  EXPECT_EQ(selection_policy("cost-aware:prior_down=1000h,premium=2")->decide(b.build()).zone, 1)
      << "2.0 is not dearer than 3 x 0.8";
  b.zones[1].spot_price_per_hour = 1.5;
  EXPECT_EQ(selection_policy("cost-aware:prior_down=1000h")->decide(b.build()).zone, 1) << "under 2 x 0.8";
  b.zones[1].spot_price_per_hour = 2.0;
  b.job.deadline = 50 * kMillisPerHour;  // slack below the reserve: no waiting, the dear spot beats on-demand
  const auto d = selection_policy("cost-aware:prior_down=1000h")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 1);
}

TEST(CostAware, NeedsAWiderMarginToMoveAfterRecentZoneChanges) {
  // On spot in zone 1 (1.2 USD/h); zone 2 at 1.0 with 200 h runs costs ~1.03 USD/h per useful hour: worth a move
  // at the plain margin (0.9 x 1.2 = 1.08), not after zone changes (0.9^(1 + changes) x 1.2).
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.obs.purchase = Purchase::kSpot;
  b.obs.phase = Phase::kComputing;
  b.obs.progress = b.obs.committed = 10 * kMillisPerHour;
  testing::place_state(b, 1, 10 * kMillisPerMinute, 1.0);
  b.zones[0].spot_available = false;
  b.zones[2].spot_price_per_hour = 1.0;
  b.zones[3].spot_price_per_hour = 1.1;
  const auto bounced = [&](const std::string& spec) {
    auto policy = selection_policy(spec);
    for (int hour = 1; hour <= 4; ++hour) {  // held in zone 3, 1, 3, 1 in turn: three changes
      at(b, hour * kMillisPerHour);
      b.obs.zone = hour % 2 == 1 ? 3 : 1;
      policy->decide(b.build());
    }
    return policy->decide(b.build()).zone;
  };
  at(b, 4 * kMillisPerHour);
  b.obs.zone = 1;
  EXPECT_EQ(selection_policy("cost-aware:prior_up=200h")->decide(b.build()).zone, 2) << "no history: moves";
  EXPECT_EQ(bounced("cost-aware:prior_up=200h"), 1) << "three recent changes";
  EXPECT_EQ(bounced("cost-aware:prior_up=200h,memory=0s"), 2) << "changes forgotten at once";
}

TEST(CostAware, RejectsBadParameters) {
  const PolicyRegistry registry = builtin_policy_registry();
  for (const char* spec :
       {"cost-aware:review=0s", "cost-aware:shrink=-1", "cost-aware:prior_up=0s", "cost-aware:leave_slack=soon",
        "cost-aware:reviews=10m", "cost-aware:pace=2", "cost-aware:reserve=-0.1", "cost-aware:premium=-1",
        "cost-aware:slack_rate=-1", "cost-aware:memory=-1h"}) {
    EXPECT_THROW(registry.selection_factory(spec), InputError) << spec;
  }
}

}  // namespace
}  // namespace spotsim

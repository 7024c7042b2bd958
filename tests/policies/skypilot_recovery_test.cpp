// SkyPilot's FAILOVER and EAGER_NEXT_REGION recovery on hand-built observations: which zone after a preemption,
// region skipping, waiting, and the deadline-driven on-demand fallback.
#include <gtest/gtest.h>

#include "multi_region_observations.hpp"

namespace spotsim {
namespace {

using testing::at;
using testing::selection_policy;
using testing::two_regions;

// Launches the policy (cheapest spot: zone 2, region 1), then zone 2 preempts the job at 1 h.
SelectionDecision launch_then_preempt_zone_2(SelectionPolicy& policy, testing::ObservationBuilder& b) {
  EXPECT_EQ(policy.decide(b.build()).zone, 2) << "first launch: the cheapest spot";
  b.zones[2].spot_available = false;
  b.preemptions = {kMillisPerHour};
  at(b, kMillisPerHour);
  return policy.decide(b.build());
}

TEST(Failover, RetriesTheSameRegionFirstThoughAnotherIsCheaper) {
  auto b = two_regions();
  auto policy = selection_policy("failover");
  const auto d = launch_then_preempt_zone_2(*policy, b);
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 3) << "zone 3 (0.9, same region) before zone 0 (0.85, other region)";
}

TEST(Failover, GoesToTheCheapestOtherRegionWhenItsOwnHasNoSpot) {
  auto b = two_regions();
  auto policy = selection_policy("failover");
  b.zones[3].spot_available = false;
  const auto d = launch_then_preempt_zone_2(*policy, b);
  EXPECT_EQ(d.zone, 0);
}

TEST(EagerNextRegion, SkipsTheRegionThatJustPreempted) {
  auto b = two_regions();
  auto policy = selection_policy("eager-next-region");
  const auto d = launch_then_preempt_zone_2(*policy, b);
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 0) << "the other region, cheapest first";
}

TEST(EagerNextRegion, ComesBackToThePreemptingRegionWhenNoOtherHasSpot) {
  auto b = two_regions();
  auto policy = selection_policy("eager-next-region");
  b.zones[0].spot_available = b.zones[1].spot_available = false;
  const auto d = launch_then_preempt_zone_2(*policy, b);
  EXPECT_EQ(d.zone, 3);
}

TEST(EagerNextRegion, BlocksTheRegionOnlyAtTheRecovery) {
  // Nothing anywhere at the preemption: the job waits; when spot returns everywhere, the whole space is searched
  // again cheapest first (SkyPilot's step 3), so zone 2 is taken although it preempted the job.
  auto b = two_regions();
  auto policy = selection_policy("eager-next-region");
  for (auto& z : b.zones) z.spot_available = true;
  policy->decide(b.build());
  for (auto& z : b.zones) z.spot_available = false;
  b.preemptions = {kMillisPerHour};
  at(b, kMillisPerHour);
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kNone);
  for (auto& z : b.zones) z.spot_available = true;
  at(b, 2 * kMillisPerHour);
  EXPECT_EQ(policy->decide(b.build()).zone, 2);
}

TEST(Failover, WaitsWhileTheSlackAllowsThenOnDemandInTheStateRegionForGood) {
  for (const char* name : {"failover", "eager-next-region"}) {
    auto b = two_regions();
    b.job.deadline = 60 * kMillisPerHour;
    b.zones[0].on_demand_price_per_hour = 2.0;  // cheapest on-demand, but in the other region
    testing::place_state(b, 3, 30 * kMillisPerMinute, 10.0);
    auto policy = selection_policy(name);
    for (auto& z : b.zones) z.spot_available = false;
    at(b, kMillisPerHour);
    auto d = policy->decide(b.build());
    EXPECT_EQ(d.purchase, Purchase::kNone) << name;
    EXPECT_LT(d.review_at, 13 * kMillisPerHour) << name << ": asks again by the last safe moment";
    at(b, 13 * kMillisPerHour);  // 12 h of slack gone
    d = policy->decide(b.build());
    EXPECT_EQ(d.purchase, Purchase::kOnDemand) << name;
    EXPECT_EQ(b.zones[static_cast<std::size_t>(d.zone)].region, 1) << name << ": no transfer to wait for";
    for (auto& z : b.zones) z.spot_available = true;
    b.obs.purchase = Purchase::kOnDemand;
    b.obs.zone = d.zone;
    EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand) << name << ": for good";
  }
}

TEST(Failover, SkipsAZoneWhoseTransferTheDeadlineCannotAbsorb) {
  auto b = two_regions();
  b.job.work = 10 * kMillisPerHour;
  b.job.deadline = 12 * kMillisPerHour;  // about 1.8 h of spare off spot
  testing::place_state(b, 0, 3 * kMillisPerHour, 0.0);
  b.zones[0].spot_available = b.zones[1].spot_available = false;
  auto policy = selection_policy("failover");
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kNone) << "region 1 needs a 3 h transfer";
  testing::place_state(b, 0, 30 * kMillisPerMinute, 0.0);
  EXPECT_EQ(policy->decide(b.build()).zone, 2);
}

}  // namespace
}  // namespace spotsim

#include <gtest/gtest.h>

#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

std::unique_ptr<SelectionPolicy> failover(const std::string& params = "") {
  return builtin_policy_registry().selection_factory("zone-failover" + params)();
}

testing::ObservationBuilder three_zones() {
  testing::ObservationBuilder b;
  b.zones = {ZoneView{true, 1.0, 3.0}, ZoneView{true, 1.0, 3.0}, ZoneView{true, 1.0, 3.0}};
  return b;
}

TEST(ZoneFailover, MovesToTheNextZoneAfterAPreemptionSkippingTheCoolingOne) {
  auto b = three_zones();
  auto policy = failover(":cooldown=1h");
  EXPECT_EQ(policy->decide(b.build()).zone, 0);
  b.preemptions = {kMillisPerHour};
  b.obs.now = b.obs.elapsed = kMillisPerHour;
  b.obs.committed = kMillisPerMinute;  // progress was saved: not a failed attempt
  auto d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 1);
  // Zone 2 has no spot: the next candidate is zone 0, still cooling, so the job waits for it.
  b.zones[2].spot_available = false;
  b.preemptions.push_back(kMillisPerHour + 10 * kMillisPerMinute);
  b.obs.now = b.obs.elapsed = kMillisPerHour + 10 * kMillisPerMinute;
  d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, 2 * kMillisPerHour);
}

TEST(ZoneFailover, FallsBackToOnDemandAfterNFailedAttempts) {
  auto b = three_zones();
  auto policy = failover(":attempts=2,cooldown=0s");
  policy->decide(b.build());
  for (int i = 1; i <= 2; ++i) {
    b.preemptions.push_back(i * kMillisPerMinute);
    b.obs.now = b.obs.elapsed = i * kMillisPerMinute;
    const auto d = policy->decide(b.build());
    EXPECT_EQ(d.purchase, i < 2 ? Purchase::kSpot : Purchase::kOnDemand) << i;
  }
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand) << "for good";
}

TEST(ZoneFailover, RespectsTheDeadline) {
  auto b = three_zones();
  b.job.deadline = 50 * kMillisPerHour;
  b.obs.now = b.obs.elapsed = 2 * kMillisPerHour;
  EXPECT_EQ(failover()->decide(b.build()).purchase, Purchase::kOnDemand);
}

}  // namespace
}  // namespace spotsim

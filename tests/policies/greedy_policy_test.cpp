#include <gtest/gtest.h>

#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

std::unique_ptr<SelectionPolicy> greedy() { return builtin_policy_registry().selection_factory("greedy")(); }

testing::ObservationBuilder cbl() { return testing::cant_be_late(52 * kMillisPerHour); }

TEST(Greedy, TakesSpotWhenObtainable) {
  auto b = cbl();
  EXPECT_EQ(greedy()->decide(b.build()).purchase, Purchase::kSpot);
}

TEST(Greedy, WaitsAndAsksAgainAtTheLastSafeMoment) {
  auto b = cbl();
  b.zones[0].spot_available = false;
  b.obs.elapsed = b.obs.now = 10 * kMillisPerHour;
  b.obs.progress = b.obs.committed = 9 * kMillisPerHour;
  const auto d = greedy()->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  // Slack on on-demand: 42 h left - (12 min + 39 h) = 2 h 48 min; minus one more changeover: review in 2 h 36 min.
  EXPECT_EQ(d.review_at, b.obs.now + 2 * kMillisPerHour + 36 * kMillisPerMinute);
}

TEST(Greedy, CommitsToOnDemandForGoodWhenTheSlackRunsOut) {
  auto b = cbl();
  b.zones[0].spot_available = false;
  b.obs.elapsed = b.obs.now = 12 * kMillisPerHour + 36 * kMillisPerMinute;
  b.obs.progress = b.obs.committed = 9 * kMillisPerHour;
  auto policy = greedy();
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand);
  b.zones[0].spot_available = true;
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kOnDemand) << "for good";
  policy->reset();
  b.obs.elapsed = b.obs.now = 2 * kMillisPerHour;
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kSpot) << "reset() starts a new run";
}

TEST(Greedy, WithoutADeadlineItIsSpotOnly) {
  auto b = cbl();
  b.job.deadline = kNever;
  b.zones[0].spot_available = false;
  const auto d = greedy()->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kNone);
  EXPECT_EQ(d.review_at, kNever);
}

}  // namespace
}  // namespace spotsim

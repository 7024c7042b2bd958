#include <gtest/gtest.h>

#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

std::unique_ptr<SelectionPolicy> make(const std::string& name) {
  return builtin_policy_registry().selection_factory(name)();
}

TEST(SpotOnly, PicksTheCheapestObtainableZoneAndWaitsWhenNone) {
  testing::ObservationBuilder b;
  b.zones = {ZoneView{true, 1.2, 3.0}, ZoneView{false, 0.5, 3.0}, ZoneView{true, 0.9, 3.0}};
  auto policy = make("spot-only");
  const auto d = policy->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kSpot);
  EXPECT_EQ(d.zone, 2);
  for (auto& z : b.zones) z.spot_available = false;
  EXPECT_EQ(policy->decide(b.build()).purchase, Purchase::kNone);
}

TEST(OnDemand, PicksTheCheapestOnDemandZone) {
  testing::ObservationBuilder b;
  b.zones = {ZoneView{true, 1.0, 3.0}, ZoneView{true, 1.0, 2.5}};
  const auto d = make("on-demand")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_EQ(d.zone, 1);
}

}  // namespace
}  // namespace spotsim

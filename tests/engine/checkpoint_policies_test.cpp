#include <gtest/gtest.h>

#include <cmath>

#include "policies/checkpoint_math.hpp"
#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim {
namespace {

std::unique_ptr<CheckpointPolicy> make(const std::string& spec) {
  return builtin_policy_registry().checkpoint_factory(spec)();
}

TEST(CheckpointMath, YoungAndDalyFormulas) {
  EXPECT_DOUBLE_EQ(young_interval(2.0, 100.0), 20.0);
  // Daly eq. 37 by hand for delta = 2, M = 100: r = 0.01; sqrt(400) (1 + 0.1/3 + 0.01/9) - 2.
  EXPECT_NEAR(daly_interval(2.0, 100.0), 20.0 * (1.0 + 0.1 / 3.0 + 0.01 / 9.0) - 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(daly_interval(300.0, 100.0), 100.0);  // delta >= 2M: checkpoint every M
}

TEST(CheckpointPolicies, YoungDalyUseTheCurrentZonesMtbfOnSpotOnly) {
  testing::ObservationBuilder b;
  b.obs.purchase = Purchase::kSpot;
  b.obs.zone = 0;
  const Observation& obs = b.build();
  const double m = static_cast<double>(b.zones[0].spot_mtbf), delta = static_cast<double>(b.job.checkpoint_write);
  EXPECT_EQ(make("young")->next_interval(obs), std::llround(young_interval(delta, m)));
  EXPECT_EQ(make("daly")->next_interval(obs), std::llround(daly_interval(delta, m)));
  EXPECT_EQ(make("young-daly:mtbf=2h")->next_interval(obs), std::llround(daly_interval(delta, 7.2e6)));
  b.obs.purchase = Purchase::kOnDemand;
  EXPECT_EQ(make("daly")->next_interval(b.build()), kNever);
}

TEST(CheckpointPolicies, FixedNoneContinuous) {
  testing::ObservationBuilder b;
  const auto fixed = make("fixed:interval=45m,on_notice=true");
  EXPECT_EQ(fixed->next_interval(b.build()), 45 * kMillisPerMinute);
  EXPECT_TRUE(fixed->checkpoint_on_notice());
  EXPECT_FALSE(make("none")->can_checkpoint());
  EXPECT_TRUE(make("continuous")->continuous());
}

}  // namespace
}  // namespace spotsim

#include "policies/policy_registry.hpp"

#include <gtest/gtest.h>

#include "base/errors.hpp"

namespace spotsim {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PolicyRegistry, EveryBuiltinIsListedAndConstructible) {
  const PolicyRegistry registry = builtin_policy_registry();
  for (const char* name : {"spot-only", "on-demand", "adaptive", "greedy", "uniform-progress", "zone-failover"}) {
    EXPECT_TRUE(registry.selection_factory(name)());
  }
  for (const char* name :
       {"none", "fixed", "young", "daly", "young-daly", "continuous", "hazard", "on-notice", "optimal-dp"}) {
    EXPECT_TRUE(registry.checkpoint_factory(name)());
  }
  for (const auto& p : registry.selection_policies()) EXPECT_FALSE(p.description.empty()) << p.name;
}

TEST(PolicyRegistry, UnknownNamesAndParametersAreClearErrors) {
  const PolicyRegistry registry = builtin_policy_registry();
  EXPECT_EQ(error_of([&] { registry.selection_factory("cheapest"); }),
            "--policy 'cheapest': unknown policy; expected one of: spot-only, on-demand, adaptive, greedy, "
            "uniform-progress, zone-failover, uniform-progress-multi, failover, eager-next-region, cost-aware, "
            "planned, optimal-offline");
  EXPECT_EQ(error_of([&] { registry.checkpoint_factory("fixed:intervall=2h"); }),
            "--checkpoint 'fixed:intervall=2h': unknown parameter 'intervall'; fixed takes: interval, on_notice");
  EXPECT_EQ(error_of([&] { registry.checkpoint_factory("fixed:interval=2"); }),
            "--checkpoint 'fixed:interval=2': parameter 'interval': expected a duration such as 30m, 2h, 90s, "
            "250ms or 1.5d, got '2'");
  EXPECT_EQ(error_of([&] { registry.selection_factory("adaptive:cluster"); }),
            "--policy 'adaptive:cluster': expected parameters as key=value separated by commas, got 'cluster'");
  EXPECT_EQ(error_of([&] { registry.checkpoint_factory("fixed:interval=0s"); }),
            "--checkpoint 'fixed:interval=0s': parameter 'interval': expected a duration > 0, got '0s'");
  EXPECT_EQ(error_of([&] { registry.checkpoint_factory("young:mtbf=0s"); }),
            "--checkpoint 'young:mtbf=0s': parameter 'mtbf': expected a duration > 0, got '0s'");
  EXPECT_EQ(error_of([&] { registry.selection_factory("adaptive:window=0s"); }),
            "--policy 'adaptive:window=0s': parameter 'window': expected a duration > 0, got '0s'");
  EXPECT_EQ(error_of([&] { registry.selection_factory("greedy:deadline=1h"); }),
            "--policy 'greedy:deadline=1h': unknown parameter 'deadline'; greedy takes no parameters");
  EXPECT_EQ(error_of([&] { registry.selection_factory("adaptive:reserve=11"); }),
            "--policy 'adaptive:reserve=11': parameter 'reserve': expected a number in [0, 10], got '11'");
  EXPECT_EQ(error_of([&] { registry.checkpoint_factory("optimal-dp:grid=99999999999999999999"); }),
            "--checkpoint 'optimal-dp:grid=99999999999999999999': parameter 'grid': expected an integer in [20, 2000], "
            "got '99999999999999999999'");
}

}  // namespace
}  // namespace spotsim

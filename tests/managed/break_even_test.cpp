// The break-even of DIY against a managed service (docs/managed.md#break-even), by hand.
#include "app/advise/break_even.hpp"

#include <gtest/gtest.h>

#include "base/errors.hpp"

namespace spotsim {
namespace {

TEST(ManagedBreakEven, ParsesAMonthlyAmount) {
  EXPECT_DOUBLE_EQ(parse_engineering_cost("8000/month"), 8000.0);
  EXPECT_DOUBLE_EQ(parse_engineering_cost("8000"), 8000.0);
  EXPECT_DOUBLE_EQ(parse_engineering_cost("1250.5/month"), 1250.5);
}

TEST(ManagedBreakEven, RefusesAnythingElse) {
  for (const char* bad : {"", "/month", "8000/year", "8000/mo", "8k", "$8000", "-8000", "0", "0/month", "nan", "inf",
                          "8000/month/month", "1e5", " 8000", "8,000"}) {
    try {
      parse_engineering_cost(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--engineering-cost"), std::string::npos) << e.what();
    }
  }
}

// E = $8,000/month, D = $40, M = $100: DIY saves s = 60% of any spend, so it pays off from S* = 8000 / 0.6.
TEST(ManagedBreakEven, HandComputed) {
  const BreakEven b = break_even(8000.0, 40.0, 100.0);
  EXPECT_DOUBLE_EQ(b.saving_fraction, 0.6);
  ASSERT_TRUE(b.monthly_spend.has_value());
  EXPECT_NEAR(*b.monthly_spend, 13333.333333, 1e-6);
  EXPECT_FALSE(break_even(8000.0, 100.0, 100.0).monthly_spend.has_value());  // no saving: never
  const BreakEven dearer = break_even(8000.0, 120.0, 100.0);
  EXPECT_DOUBLE_EQ(dearer.saving_fraction, -0.2);
  EXPECT_FALSE(dearer.monthly_spend.has_value());
}

}  // namespace
}  // namespace spotsim

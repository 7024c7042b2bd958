// The one fixed-point formatter of every human-readable table (base/text_format.hpp).
#include "base/text_format.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace spotsim {
namespace {

TEST(TextFormat, AValueThatRoundsToZeroPrintsWithoutASign) {
  EXPECT_EQ(format_fixed(-0.0, 2), "0.00");
  EXPECT_EQ(format_fixed(-0.004, 2), "0.00");
  EXPECT_EQ(format_fixed(-0.4, 0), "0");
  EXPECT_EQ(format_fixed(-1e-12, 3), "0.000");
  EXPECT_EQ(format_usd(-0.001), "$0.00");
}

TEST(TextFormat, OtherValuesKeepTheirSign) {
  EXPECT_EQ(format_fixed(-0.005001, 2), "-0.01");
  EXPECT_EQ(format_fixed(-12.5, 1), "-12.5");
  EXPECT_EQ(format_fixed(0.004, 2), "0.00");
  EXPECT_EQ(format_fixed(3.14159, 3), "3.142");
  EXPECT_EQ(format_fixed(-INFINITY, 1), "-inf");
  EXPECT_EQ(format_fixed(NAN, 1).find("nan") != std::string::npos, true);
}

TEST(TextFormat, SmallValuesKeepThreeSignificantDigits) {
  EXPECT_EQ(decimals_for(0.272, 3, 3), 3);
  EXPECT_EQ(format_fixed(0.0532, decimals_for(0.0532, 3, 3)), "0.0532");
  EXPECT_EQ(format_fixed(0.00271, decimals_for(0.00271, 3, 3)), "0.00271");
  EXPECT_EQ(decimals_for(-0.00271, 3, 3), 5);
  EXPECT_EQ(decimals_for(1234.5, 3, 3), 3) << "never fewer than asked";
  EXPECT_EQ(decimals_for(0.0, 3, 3), 3);
  EXPECT_EQ(decimals_for(1e-30, 3, 3), 9) << "at most 9";
  EXPECT_EQ(decimals_for(NAN, 2, 3), 2);
  EXPECT_EQ(decimals_for(INFINITY, 2, 3), 2);
}

}  // namespace
}  // namespace spotsim

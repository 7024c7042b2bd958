#include "base/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace spotsim {
namespace {

TEST(Statistics, PercentilesInterpolateLikeNumpy) {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(percentile_sorted(x, 0.5), 5.5);
  EXPECT_DOUBLE_EQ(percentile_sorted(x, 0.95), 9.55);  // numpy.percentile(x, 95)
  EXPECT_DOUBLE_EQ(percentile_sorted(x, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(percentile_sorted(x, 1.0), 10.0);
}

TEST(Statistics, StudentTQuantilesMatchTables) {
  EXPECT_NEAR(student_t_quantile(9, 0.975), 2.262157, 1e-6);
  EXPECT_NEAR(student_t_quantile(1, 0.975), 12.706205, 1e-6);
  EXPECT_NEAR(student_t_quantile(1e6, 0.975), 1.959966, 1e-5);
}

TEST(Statistics, SummaryOfAKnownSample) {
  const std::vector<double> x = {2, 4, 4, 4, 5, 5, 7, 9};
  const Summary s = summarize(x);
  EXPECT_EQ(s.n, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.sd, 2.138089935, 1e-9);
  const double half = 2.364624252 * 2.138089935 / std::sqrt(8.0);  // t_{7, 0.975}
  EXPECT_NEAR(s.ci_low, 5.0 - half, 1e-8);
  EXPECT_NEAR(s.ci_high, 5.0 + half, 1e-8);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
}

TEST(Statistics, SingleValueAndEmpty) {
  const std::vector<double> one = {3.0};
  const Summary s = summarize(one);
  EXPECT_EQ(s.sd, 0.0);
  EXPECT_EQ(s.ci_low, 3.0);
  EXPECT_TRUE(std::isnan(summarize(std::vector<double>{}).mean));
}

}  // namespace
}  // namespace spotsim

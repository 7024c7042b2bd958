#include "traces/step_series.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

// 0..10 h: value 1; 10..15 h: 0; 15..20 h: 2; period 20 h.
StepSeries example() {
  return StepSeries({0, 10 * kMillisPerHour, 15 * kMillisPerHour}, {1.0, 0.0, 2.0}, 20 * kMillisPerHour);
}

TEST(StepSeries, ValueAtATimeRepeatsWithThePeriod) {
  const auto s = example();
  EXPECT_EQ(s.at(0), 1.0);
  EXPECT_EQ(s.at(10 * kMillisPerHour - 1), 1.0);
  EXPECT_EQ(s.at(10 * kMillisPerHour), 0.0);
  EXPECT_EQ(s.at(17 * kMillisPerHour), 2.0);
  EXPECT_EQ(s.at(32 * kMillisPerHour), 0.0);  // 32 h = 12 h into the second period
}

TEST(StepSeries, NextTimeWhereWrapsAroundThePeriod) {
  const auto s = example();
  const auto below_one = [](double v) { return v < 1.0; };
  EXPECT_EQ(s.next_time_where(0, below_one), 10 * kMillisPerHour);
  EXPECT_EQ(s.next_time_where(16 * kMillisPerHour, below_one), 30 * kMillisPerHour);
  const auto positive = [](double v) { return v > 0.0; };
  EXPECT_EQ(s.next_time_where(11 * kMillisPerHour, positive), 15 * kMillisPerHour);
  const auto never = [](double v) { return v > 5.0; };
  EXPECT_EQ(s.next_time_where(0, never), kNever);
}

TEST(StepSeries, IntegralAcrossPeriods) {
  const auto s = example();
  // One period: 10*1 + 5*0 + 5*2 = 20 value-hours.
  EXPECT_DOUBLE_EQ(s.integrate_hours(0, 20 * kMillisPerHour), 20.0);
  EXPECT_DOUBLE_EQ(s.integrate_hours(5 * kMillisPerHour, 47 * kMillisPerHour), 5.0 + 0.0 + 10.0 + 20.0 + 7.0);
  EXPECT_DOUBLE_EQ(StepSeries::constant(2.5).integrate_hours(0, 4 * kMillisPerHour), 10.0);
}

TEST(StepSeries, FractionWhere) {
  EXPECT_DOUBLE_EQ(example().fraction_where([](double v) { return v >= 1.0; }), 0.75);
}

}  // namespace
}  // namespace spotsim

#include "model/market/step_series.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <random>
#include <vector>

#include "model/market/change_points.hpp"

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

// next_time_at_least (a max-tree descent) answers exactly what the linear next_time_where(v >= threshold) does, on
// random series of 1 to 300 points (periodic and not, every leaf count around a power of two), at random times
// (inside, before and several periods after the first), for every threshold from below the minimum to above the
// maximum.
TEST(StepSeries, NextTimeAtLeastIsTheLinearScansAnswer) {
  boost::random::mt19937 rng(20261128);
  for (int series = 0; series < 400; ++series) {
    const std::size_t n = 1 + rng() % 300;
    std::vector<Millis> times{0};
    std::vector<double> values{static_cast<double>(rng() % 6)};
    for (std::size_t i = 1; i < n; ++i) {
      times.push_back(times.back() + 1 + static_cast<Millis>(rng() % 1000));
      values.push_back(static_cast<double>(rng() % 6));
    }
    // Every fourth series never repeats (span kNever), a one-point one of them is a constant.
    const bool periodic = series % 4 != 0;
    const StepSeries s = periodic ? StepSeries(times, values, times.back() + 1 + static_cast<Millis>(rng() % 500))
                         : n == 1 ? StepSeries::constant(values.front())
                                  : StepSeries(times, values, kNever);
    const Millis horizon = periodic ? 3 * s.span() : 2 * times.back() + 1000;
    for (int probe = 0; probe < 40; ++probe) {
      const Millis t = static_cast<Millis>(rng() % static_cast<std::uint64_t>(horizon));
      for (double threshold = -1.0; threshold <= 6.5; threshold += 0.5) {
        ASSERT_EQ(s.next_time_at_least(t, threshold),
                  s.next_time_where(t, [threshold](double v) { return v >= threshold; }))
            << "series " << series << " (" << n << " points), t = " << t << ", threshold " << threshold;
      }
    }
  }
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

namespace spotsim {
namespace {

// The bucket index behind at() must give exactly the value of the last change at or before t, for even and very
// uneven spacings (a crowded bucket takes the binary-search path), inside and outside the period.
TEST(StepSeries, BucketIndexAgreesWithALinearScan) {
  boost::random::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 300;
    std::vector<Millis> times{0};
    for (std::size_t i = 1; i < n; ++i) {
      // Mostly small steps with rare huge gaps, so some buckets hold many changes and many hold none.
      const Millis step =
          rng() % 10 == 0 ? 1 + static_cast<Millis>(rng() % 1'000'000) : 1 + static_cast<Millis>(rng() % 50);
      times.push_back(times.back() + step);
    }
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) values.push_back(static_cast<double>(i));
    const Millis span = times.back() + 1 + static_cast<Millis>(rng() % 1000);
    const StepSeries periodic(times, values, span), open(times, values, kNever);
    for (int q = 0; q < 500; ++q) {
      const Millis t = static_cast<Millis>(rng() % static_cast<std::uint64_t>(3 * span)) - span;
      const Millis phase = ((t % span) + span) % span;
      const auto expected = [&](Millis x) {
        std::size_t i = 0;
        while (i + 1 < n && times[i + 1] <= x) ++i;
        return static_cast<double>(i);
      };
      ASSERT_EQ(periodic.at(t), expected(phase)) << "trial " << trial << " t " << t;
      ASSERT_EQ(open.at(t), expected(t)) << "trial " << trial << " t " << t;
    }
  }
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

// ChangePoints (model/market/change_points.hpp) against a walk over the series: the first time after t at which the
// key differs from its value at t, for periodic and one-off series, keys that merge neighbouring values (a node
// count against a threshold) and ones that do not (a price), t anywhere including before 0 and many periods on.
TEST(ChangePoints, NextChangeIsTheFirstTimeTheKeyDiffers) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<Millis> times{0};
    std::vector<double> values{static_cast<double>(rng() % 4)};
    const int entries = 1 + static_cast<int>(rng() % 12);
    for (int i = 1; i < entries; ++i) {
      times.push_back(times.back() + 1 + static_cast<Millis>(rng() % 50));
      values.push_back(static_cast<double>(rng() % 4));
    }
    const bool periodic = rng() % 2 == 0;
    const Millis span = periodic ? times.back() + 1 + static_cast<Millis>(rng() % 50) : kNever;
    const StepSeries series(times, values, span);
    const double threshold = static_cast<double>(1 + rng() % 3);
    const auto key = [threshold](double v) { return v >= threshold; };
    const ChangePoints by_threshold(series, key), by_value(series, [](double v) { return v; });
    for (int probe = 0; probe < 30; ++probe) {
      const Millis t = static_cast<Millis>(rng() % 2000) - 200;
      if (!periodic && t < 0) continue;
      const bool now = key(series.at(t));
      EXPECT_EQ(by_threshold.next_after(t), series.next_time_where(t, [&](double v) { return key(v) != now; }))
          << "trial " << trial << " t " << t;
      const double value = series.at(t);
      EXPECT_EQ(by_value.next_after(t), series.next_time_where(t, [&](double v) { return v != value; }))
          << "trial " << trial << " t " << t;
    }
  }
}

}  // namespace
}  // namespace spotsim

// The dynamic-programming checkpoint schedule (Kadupitiya et al., HPDC'20) against its published structure, the
// engine, and the Young/Daly intervals it should never lose to under the bathtub model.
#include <gtest/gtest.h>

#include <vector>

#include "base/statistics.hpp"
#include "engine/replication_runner.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "policies/checkpoint_schedule_dp.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

const BathtubParameters kBathtub{0.4198, 0.975, 0.372, 24.33, 25.0};

CheckpointScheduleDp schedule(const LifetimeDistribution& lifetime, double work_hours) {
  CheckpointScheduleInput in;
  in.lifetime = &lifetime;
  in.work = millis_from_hours(work_hours);
  in.checkpoint_write = 2 * kMillisPerMinute;
  in.restart = 6 * kMillisPerMinute;
  return CheckpointScheduleDp(in);
}

TEST(OptimalDp, IntervalsGrowWithAgeInTheFirstHoursAndShrinkBeforeTheLimit) {
  const LifetimeDistribution bathtub = BathtubLifetime(kBathtub);
  const auto dp = schedule(bathtub, 48.0);
  const Millis work = 48 * kMillisPerHour;
  std::vector<Millis> early;
  for (double age : {0.0, 0.5, 1.0, 2.0, 3.0}) early.push_back(dp.next_interval(work, millis_from_hours(age)));
  for (std::size_t i = 1; i < early.size(); ++i) EXPECT_GE(early[i], early[i - 1]) << i;
  EXPECT_GT(early.back(), 4 * early.front());
  EXPECT_LT(dp.next_interval(work, millis_from_hours(23.5)), dp.next_interval(work, millis_from_hours(12.0)));
  EXPECT_LT(dp.next_interval(work, millis_from_hours(24.0)), kMillisPerHour);
}

TEST(OptimalDp, ForExponentialLifetimesTheScheduleIsPeriodicNearDaly) {
  // Memoryless: the optimal interval does not depend on age (away from the end of the job).
  const LifetimeDistribution exponential = ExponentialLifetime{10.0};
  const auto dp = schedule(exponential, 60.0);
  const Millis a = dp.next_interval(60 * kMillisPerHour, 0);
  const Millis b = dp.next_interval(60 * kMillisPerHour, 5 * kMillisPerHour);
  EXPECT_NEAR(static_cast<double>(a), static_cast<double>(b), static_cast<double>(dp.step()));
  // Daly's interval for delta = 2 min, M = 10 h is 1.56 h; the grid step bounds the difference.
  EXPECT_NEAR(to_hours(a), 1.56, to_hours(dp.step()) + 0.1);
}

std::vector<double> simulated(const std::string& checkpoint, double work_hours, std::uint64_t n) {
  const SpotMarket market = testing::single_zone_market(BathtubLifetime(kBathtub));
  const Scenario scenario(market,
                          testing::job(work_hours, 2 * kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute));
  const auto runs = run_replications(scenario, testing::policies("spot-only", checkpoint), {77, 0, n, 0});
  std::vector<double> hours;
  for (const auto& r : runs) hours.push_back(r.completion_hours);
  return hours;
}

TEST(OptimalDp, ExpectedMakespanMatchesTheEngine) {
  const LifetimeDistribution bathtub = BathtubLifetime(kBathtub);
  const auto dp = schedule(bathtub, 12.0);
  const Summary s = summarize(simulated("optimal-dp", 12.0, 20000));
  // The DP's own estimate is exact up to its time grid (5 min steps): allow 1% beyond 4 standard errors.
  EXPECT_NEAR(s.mean, to_hours(static_cast<Millis>(dp.expected_makespan())),
              4.0 * s.sd / std::sqrt(double(s.n)) + 0.01 * s.mean);
}

TEST(OptimalDp, NeverWorseThanYoungOrDalyUnderTheBathtubModel) {
  for (double work : {4.0, 12.0, 48.0}) {
    const auto dp = simulated("optimal-dp", work, 10000);
    for (const char* other : {"young", "daly"}) {
      const auto baseline = simulated(other, work, 10000);
      std::vector<double> diff(dp.size());
      for (std::size_t i = 0; i < dp.size(); ++i) diff[i] = dp[i] - baseline[i];
      const Summary d = summarize(diff);  // paired: the same preemptions (common random numbers)
      EXPECT_LT(d.ci_low, 0.0) << work << " h job: optimal-dp worse than " << other << " by " << d.mean << " h";
      EXPECT_LT(d.mean, 0.002 * work) << work << " h vs " << other;
    }
  }
}

}  // namespace
}  // namespace spotsim

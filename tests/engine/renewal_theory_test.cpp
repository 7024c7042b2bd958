// Simulated completion times against renewal theory for exponential preemptions (statistical; labelled slow
// only if it ever gets slow: each test runs in well under a second).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "base/statistics.hpp"
#include "engine/replication_runner.hpp"
#include "policies/checkpoint_math.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

// Exact expected completion time of the engine's model with exponential preemptions (rate lambda), periodic
// checkpoints every tau of compute, write delta, start-up D, restore R (only once a checkpoint exists), and
// preemptions possible at any moment an instance is held. A segment of length X that must run uninterrupted,
// restarted at cost S after each failure, takes e^(lambda S) (e^(lambda X) - 1) / lambda on average
// (Daly 2006, eq. 13; the restart itself may fail). The first instance needs (e^(lambda D) - 1) / lambda.
double expected_completion(double work, double tau, double delta, double startup, double restore, double lambda) {
  const int segments = static_cast<int>(std::ceil(work / tau - 1e-12));
  double total = std::expm1(lambda * startup) / lambda;
  for (int i = 0; i < segments; ++i) {
    const bool last = i == segments - 1;
    const double x = last ? work - tau * (segments - 1) : tau + delta;
    const double s = startup + (i == 0 ? 0.0 : restore);
    total += std::exp(lambda * s) * std::expm1(lambda * x) / lambda;
  }
  return total;
}

std::vector<double> completion_hours(double mean_hours, double work, const std::string& checkpoint, Millis delta,
                                     Millis startup, Millis restore, std::uint64_t n) {
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{mean_hours});
  const Scenario scenario(market, testing::job(work, delta, restore, startup));
  const auto runs = run_replications(scenario, testing::policies("spot-only", checkpoint), {2024, 0, n, 0});
  std::vector<double> hours;
  for (const auto& r : runs) hours.push_back(r.completion_hours);
  return hours;
}

TEST(RenewalTheory, ExpectedCompletionTimeMatchesTheClosedForm) {
  struct Case {
    double mean, work, tau_h;
    Millis delta, startup, restore;
  };
  const Case cases[] = {
      {10.0, 48.0, 2.0, 5 * kMillisPerMinute, 4 * kMillisPerMinute, 3 * kMillisPerMinute},
      {3.0, 24.0, 0.5, 2 * kMillisPerMinute, 10 * kMillisPerMinute, 5 * kMillisPerMinute},
      {50.0, 100.0, 7.0, 15 * kMillisPerMinute, 0, 0},
  };
  for (const Case& c : cases) {
    const auto hours = completion_hours(c.mean, c.work, "fixed:interval=" + std::to_string(int(c.tau_h * 60)) + "m",
                                        c.delta, c.startup, c.restore, 20000);
    const Summary s = summarize(hours);
    const double expected =
        expected_completion(c.work, c.tau_h, to_hours(c.delta), to_hours(c.startup), to_hours(c.restore), 1.0 / c.mean);
    // Within 4 standard errors (p ~ 6e-5 for a correct simulator); the seed is fixed, so the test is stable.
    EXPECT_NEAR(s.mean, expected, 4.0 * s.sd / std::sqrt(double(s.n)))
        << "mean " << c.mean << " h, tau " << c.tau_h << " h";
  }
}

TEST(RenewalTheory, DalysIntervalMinimisesSimulatedCompletionTime) {
  // M = 10 h, delta = 5 min: Daly's interval ~ 1.236 h. Common random numbers make the comparison paired.
  const double mean = 10.0, work = 72.0;
  const Millis delta = 5 * kMillisPerMinute, startup = 3 * kMillisPerMinute, restore = 2 * kMillisPerMinute;
  const double daly = daly_interval(to_hours(delta), mean);
  ASSERT_NEAR(daly, 1.2360, 1e-3);
  const auto at = [&](double tau_h) {
    return completion_hours(mean, work, "fixed:interval=" + std::to_string(std::llround(tau_h * 3600)) + "s", delta,
                            startup, restore, 20000);
  };
  const auto optimum = at(daly);
  const double optimum_mean = summarize(optimum).mean;
  for (double tau : {0.4, 0.7, 0.9, 1.6, 2.2, 3.0}) {
    const auto other = at(tau);
    std::vector<double> diff(other.size());
    for (std::size_t i = 0; i < other.size(); ++i) diff[i] = other[i] - optimum[i];
    const Summary d = summarize(diff);
    // Daly's interval is never beaten by a grid point beyond the noise of the paired difference; and the
    // analytic curve puts every grid point above it.
    EXPECT_GT(d.ci_high, 0.0) << "tau " << tau << " h beat Daly's " << daly << " h by " << -d.mean << " h";
    EXPECT_GT(expected_completion(work, tau, to_hours(delta), to_hours(startup), to_hours(restore), 1 / mean),
              expected_completion(work, daly, to_hours(delta), to_hours(startup), to_hours(restore), 1 / mean));
  }
  EXPECT_NEAR(optimum_mean,
              expected_completion(work, daly, to_hours(delta), to_hours(startup), to_hours(restore), 1 / mean),
              0.01 * optimum_mean);
}

TEST(RenewalTheory, YoungDalyPolicyUsesTheTraceMtbf) {
  // The young-daly policy must pick the same interval as the formula, so its mean matches the fixed policy's.
  const auto policy = completion_hours(10.0, 48.0, "young-daly", 5 * kMillisPerMinute, 0, 0, 2000);
  const double daly = daly_interval(5.0 / 60.0, 10.0);
  const auto fixed = completion_hours(10.0, 48.0, "fixed:interval=" + std::to_string(std::llround(daly * 3.6e6)) + "ms",
                                      5 * kMillisPerMinute, 0, 0, 2000);
  EXPECT_EQ(policy, fixed);
}

}  // namespace
}  // namespace spotsim

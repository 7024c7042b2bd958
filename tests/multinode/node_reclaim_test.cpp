// The reclaim law of model/market/node_reclaim.hpp: hypergeometric losses, common random numbers, and the old
// "below N" rule recovered whenever the job holds the whole pool.
#include "model/market/node_reclaim.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model/market/step_series.hpp"

namespace spotsim {
namespace {

double choose(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
}

// P(lost = k) for HG(pool, held, removed).
std::vector<double> hypergeometric_pmf(int pool, int held, int removed) {
  std::vector<double> pmf(static_cast<std::size_t>(held) + 1, 0.0);
  for (int k = 0; k <= held; ++k)
    pmf[static_cast<std::size_t>(k)] = choose(held, k) * choose(pool - held, removed - k) / choose(pool, removed);
  return pmf;
}

struct Case {
  int pool_before, pool_after, held;
};

class HypergeometricLaw : public ::testing::TestWithParam<Case> {};

// Mean and variance of the losses over 40,000 drops (distinct times) against the hypergeometric law's. Tolerance:
// 4.5 standard errors of each estimator, computed from the exact distribution (mean: sqrt(var / n); variance:
// sqrt((mu4 - var^2) / n)), so a correct sampler fails with probability below 1e-5 and a biased one (e.g. drawing
// with replacement, or the old rule's zero losses above the job's count) fails by many standard errors.
TEST_P(HypergeometricLaw, MeanAndVarianceMatchAnalyticalValues) {
  const Case c = GetParam();
  const int removed = c.pool_before - c.pool_after;
  const auto pmf = hypergeometric_pmf(c.pool_before, c.held, removed);
  double mean = 0, var = 0, mu4 = 0;
  for (std::size_t k = 0; k < pmf.size(); ++k) mean += static_cast<double>(k) * pmf[k];
  for (std::size_t k = 0; k < pmf.size(); ++k) {
    const double d = static_cast<double>(k) - mean;
    var += d * d * pmf[k];
    mu4 += d * d * d * d * pmf[k];
  }
  // Closed form of the mean and variance (e.g. Johnson, Kemp & Kotz, Univariate Discrete Distributions, 3rd ed., 6.2).
  const double n = c.pool_before, K = c.held, r = removed;
  ASSERT_NEAR(mean, K * r / n, 1e-9);
  ASSERT_NEAR(var, K * r / n * (n - K) / n * (n - r) / (n - 1), 1e-9);

  constexpr int kDraws = 40000;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < kDraws; ++i) {
    const int lost = instances_reclaimed(7, 3, 60'000LL * i, c.pool_before, c.pool_after, c.held);
    ASSERT_GE(lost, std::max(0, c.held - c.pool_after));
    ASSERT_LE(lost, std::min(c.held, removed));
    sum += lost;
    sum_sq += static_cast<double>(lost) * lost;
  }
  const double sample_mean = sum / kDraws;
  const double sample_var = (sum_sq - kDraws * sample_mean * sample_mean) / (kDraws - 1);
  EXPECT_NEAR(sample_mean, mean, 4.5 * std::sqrt(var / kDraws));
  EXPECT_NEAR(sample_var, var, 4.5 * std::sqrt((mu4 - var * var) / kDraws));
}

INSTANTIATE_TEST_SUITE_P(Pools, HypergeometricLaw,
                         ::testing::Values(Case{32, 31, 8},    // one removal: lost ~ Bernoulli(8/32)
                                           Case{32, 28, 8},    // several removed, fewer than held
                                           Case{30, 10, 8},    // more removed than held (draws over the held)
                                           Case{12, 5, 8},     // the pool falls below held: at least 3 lost
                                           Case{100, 99, 1}),  // a single node in a large pool
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                           return "pool" + std::to_string(param_info.param.pool_before) + "to" +
                                  std::to_string(param_info.param.pool_after) + "held" +
                                  std::to_string(param_info.param.held);
                         });

TEST(NodeReclaim, ProbabilityOfAReclaimIsOneMinusTheHypergeometricZero) {
  for (const Case c :
       {Case{32, 31, 8}, Case{32, 28, 8}, Case{30, 10, 8}, Case{12, 5, 8}, Case{100, 99, 1}, Case{16, 13, 16}}) {
    const int removed = c.pool_before - c.pool_after;
    EXPECT_NEAR(reclaim_probability(c.pool_before, c.pool_after, c.held),
                1.0 - hypergeometric_pmf(c.pool_before, c.held, removed)[0], 1e-12);
  }
  EXPECT_EQ(reclaim_probability(30, 30, 8), 0.0);
  EXPECT_EQ(reclaim_probability(16, 15, 16), 1.0);
  EXPECT_EQ(reclaim_probability(1, 0, 1), 1.0);
}

TEST(NodeReclaim, SameKeyGivesSameLossAndKeysDiffer) {
  const int a = instances_reclaimed(11, 4, 3'600'000, 32, 20, 8);
  EXPECT_EQ(instances_reclaimed(11, 4, 3'600'000, 32, 20, 8), a);
  // Some other key changes the outcome (over a few keys; each differs with probability > 0.5).
  bool seed_matters = false, replication_matters = false, time_matters = false;
  for (int k = 1; k <= 20; ++k) {
    seed_matters |= instances_reclaimed(11 + k, 4, 3'600'000, 32, 20, 8) != a;
    replication_matters |= instances_reclaimed(11, 4 + k, 3'600'000, 32, 20, 8) != a;
    time_matters |= instances_reclaimed(11, 4, 3'600'000 + k, 32, 20, 8) != a;
  }
  EXPECT_TRUE(seed_matters);
  EXPECT_TRUE(replication_matters);
  EXPECT_TRUE(time_matters);
}

TEST(NodeReclaim, LossIsCertainWhenTheJobHoldsThePoolOrThePoolFallsBelowIt) {
  for (int at = 0; at < 200; ++at) {
    EXPECT_EQ(instances_reclaimed(1, 0, at, 16, 13, 16), 3);  // the recorder's own cluster: every removal is the job's
    EXPECT_EQ(instances_reclaimed(1, 0, at, 16, 0, 16), 16);
    EXPECT_EQ(instances_reclaimed(1, 0, at, 1, 0, 1), 1);   // single node, 0/1 availability
    EXPECT_GE(instances_reclaimed(1, 0, at, 30, 5, 8), 3);  // only 5 left for 8 held
    EXPECT_EQ(instances_reclaimed(1, 0, at, 30, 0, 8), 8);
    EXPECT_EQ(instances_reclaimed(1, 0, at, 30, 30, 8), 0);  // no drop
    EXPECT_EQ(instances_reclaimed(1, 0, at, 30, 20, 0), 0);  // nothing held
  }
}

// When the count never exceeds what the job holds (single-node 0/1 files, an N-node job on the N-node recording),
// the first reclaim is exactly the old rule's first drop below N, whatever the key.
TEST(NextReclaim, EqualsTheOldRuleWhenTheJobHoldsTheWholePool) {
  const int held = 4;
  const Millis span = 100 * kMillisPerMinute;
  std::vector<Millis> times;
  std::vector<double> values;
  std::uint64_t x = 12345;
  for (int i = 0; i < 100; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    times.push_back(i * kMillisPerMinute);
    values.push_back(static_cast<double>((x >> 33) % (held + 1)));  // 0..held
  }
  const StepSeries series(times, values, span);
  for (Millis from = 0; from < 3 * span; from += 7 * kMillisPerSecond) {
    if (series.at(from) < held) continue;  // a job starts only when the count allows
    const Millis old_rule = series.next_time_where(from, [](double v) { return v < held; });
    for (std::uint64_t rep = 0; rep < 3; ++rep) {
      const Reclaim r = next_reclaim(series, from, held, 5, rep);
      ASSERT_EQ(r.at, old_rule) << "from " << from;
      EXPECT_EQ(r.lost, held - static_cast<int>(series.at(r.at)));
    }
  }
}

TEST(NextReclaim, OnlyDropsReclaimAndAPoolThatNeverShrinksNever) {
  const Millis span = 10 * kMillisPerMinute;
  const StepSeries rising({0, kMillisPerMinute}, {8, 12}, kNever);  // not periodic: no drop at all
  EXPECT_EQ(next_reclaim(rising, 0, 4, 1, 0).at, kNever);
  const StepSeries flat = StepSeries::constant(30);
  EXPECT_EQ(next_reclaim(flat, 0, 8, 1, 0).at, kNever);
  // Periodic 30 -> 20 -> 30: the drop at 5 min (and its repeats) is the only place a reclaim can happen.
  const StepSeries dip({0, 5 * kMillisPerMinute}, {30, 20}, span);
  for (std::uint64_t rep = 0; rep < 50; ++rep) {
    const Reclaim r = next_reclaim(dip, 0, 8, 9, rep);
    ASSERT_NE(r.at, kNever);
    EXPECT_EQ((r.at - 5 * kMillisPerMinute) % span, 0);
    EXPECT_GE(r.lost, 1);
    // The same key answers the same, whichever caller asks (common random numbers).
    EXPECT_EQ(next_reclaim(dip, 0, 8, 9, rep).at, r.at);
    EXPECT_EQ(r.lost, instances_reclaimed(9, rep, r.at, 30, 20, 8));
  }
}

}  // namespace
}  // namespace spotsim

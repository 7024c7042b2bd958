// Every lifetime sampler against its own CDF (Kolmogorov-Smirnov) and closed-form mean.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/market/lifetime_distribution.hpp"
#include "model/random_streams.hpp"

namespace spotsim {
namespace {

constexpr int kSamples = 20000;

std::vector<double> draw(const LifetimeDistribution& model, std::uint64_t seed) {
  RandomStream rng(seed, 0, StreamPurpose::kSpotLifetime, 0);
  std::vector<double> x(kSamples);
  for (double& v : x) v = model.sample(rng.uniform_open01());
  std::sort(x.begin(), x.end());
  return x;
}

// One-sample KS statistic D = sup |F_n - F|, compared on both sides of every distinct sample value so that atoms
// (the bathtub's cap, the Kaplan-Meier tail) are handled exactly.
double ks_distance(const std::vector<double>& sorted, const LifetimeDistribution& model) {
  double d = 0.0;
  const auto n = static_cast<double>(sorted.size());
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const double x = sorted[i];
    d = std::max({d, std::abs(static_cast<double>(j) / n - model.cdf(x)),
                  std::abs(static_cast<double>(i) / n - model.cdf(std::nextafter(x, -INFINITY)))});
    i = j;
  }
  return d;
}

double mean_of(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double sd_of(const std::vector<double>& x) {
  const double m = mean_of(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(x.size() - 1));
}

// KS at significance 0.001: D_crit = 1.949 / sqrt(n). With fixed seeds the test is deterministic; the threshold
// is what a correct sampler passes for all but 1 in 1000 seeds.
const double kKsCritical = 1.949 / std::sqrt(static_cast<double>(kSamples));

void expect_sampler_matches(const LifetimeDistribution& model, double closed_form_mean) {
  const auto x = draw(model, 11);
  EXPECT_LT(ks_distance(x, model), kKsCritical) << model.name();
  // Sample mean within 4 standard errors of the closed form (two-sided p ~ 6e-5 for a correct sampler).
  EXPECT_NEAR(mean_of(x), closed_form_mean, 4.0 * sd_of(x) / std::sqrt(static_cast<double>(kSamples))) << model.name();
  EXPECT_NEAR(model.mean(), closed_form_mean, 1e-9 * closed_form_mean) << model.name();
}

const BathtubParameters kPaperLike{0.4198, 0.975, 0.372, 24.33, 25.0};

TEST(LifetimeModels, ExponentialSamplerMatchesCdfAndMean) { expect_sampler_matches(ExponentialLifetime{7.5}, 7.5); }

TEST(LifetimeModels, WeibullSamplerMatchesCdfAndMean) {
  expect_sampler_matches(WeibullLifetime{0.7, 10.0}, 10.0 * std::tgamma(1.0 + 1.0 / 0.7));
  expect_sampler_matches(WeibullLifetime{2.5, 4.0}, 4.0 * std::tgamma(1.0 + 1.0 / 2.5));
}

// Mean of the bathtub model by direct numerical integration of 1 - F (independent of the closed form).
double bathtub_mean_by_quadrature(const BathtubLifetime& m) {
  const int n = 200000;
  const double h = m.end_of_life() / n;
  double s = 0;
  for (int i = 0; i < n; ++i) s += 1.0 - m.cdf((i + 0.5) * h);
  return s * h;
}

TEST(LifetimeModels, BathtubClosedFormMeanMatchesQuadrature) {
  const BathtubLifetime m(kPaperLike);
  EXPECT_NEAR(m.mean(), bathtub_mean_by_quadrature(m), 1e-6);
  // With the cap binding before F reaches 1 there is an atom at the cap; the mean must account for it.
  const BathtubLifetime capped({0.4198, 0.975, 0.372, 24.33, 24.0});
  EXPECT_DOUBLE_EQ(capped.end_of_life(), 24.0);
  EXPECT_NEAR(capped.mean(), bathtub_mean_by_quadrature(capped), 1e-6);
}

TEST(LifetimeModels, BathtubSamplerMatchesCdfAndMean) {
  const BathtubLifetime m(kPaperLike);
  expect_sampler_matches(m, bathtub_mean_by_quadrature(m));
}

// Golden draws: 200,000 quantiles per parameter set, hashed bit for bit (FNV-1a over the doubles), as the sampler
// gave them before quantile() learnt to skip the late exponential where it cannot change a bit. Sets 1 and 2 take
// that shortcut in their early-life range (b/tau2 = 65 and 230); set 3 (b/tau2 = 13) never does.
TEST(LifetimeModels, BathtubQuantilesArePinnedBitForBit) {
  const struct {
    BathtubParameters p;
    std::uint64_t hash;
  } cases[] = {{kPaperLike, 0x6176921846644a34ULL},
               {{0.3, 2.0, 0.1, 23.0, 24.0}, 0x454fd33a77ba3c80ULL},
               {{0.9, 0.5, 1.5, 20.0, 24.0}, 0xc4e565a42f52f064ULL}};
  for (const auto& c : cases) {
    const BathtubLifetime m(c.p);
    std::uint64_t hash = 1469598103934665603ULL;
    constexpr int kN = 200000;
    for (int i = 0; i < kN; ++i) {
      const double t = m.quantile((i + 0.5) / kN);
      std::uint64_t bits = 0;
      std::memcpy(&bits, &t, sizeof bits);
      hash = (hash ^ bits) * 1099511628211ULL;
    }
    EXPECT_EQ(hash, c.hash) << "A=" << c.p.A << " b=" << c.p.b_hours;
  }
  EXPECT_EQ(BathtubLifetime(kPaperLike).quantile(0.25), 0x1.c3dabca604d04p-1);
  EXPECT_EQ(BathtubLifetime(kPaperLike).quantile(0.41), 0x1.d4ec4b44ca59p+1);
}

TEST(LifetimeModels, BathtubCdfFollowsTheFormula) {
  const BathtubLifetime m(kPaperLike);
  for (double t : {0.0, 0.5, 1.0, 6.0, 12.0, 20.0, 24.0}) {
    const double formula = std::min(1.0, 0.4198 * (1 - std::exp(-t / 0.975) + std::exp((t - 24.33) / 0.372)));
    EXPECT_DOUBLE_EQ(m.cdf(t), formula) << t;
  }
  EXPECT_EQ(m.cdf(m.end_of_life()), 1.0);
  EXPECT_EQ(m.cdf(30.0), 1.0);
  // F reaches 1 where A(1 + e^((t-b)/tau2)) = 1 (the e^(-t/tau1) term is negligible there).
  EXPECT_NEAR(m.end_of_life(), 24.33 + 0.372 * std::log(1.0 / 0.4198 - 1.0), 1e-6);
}

TEST(LifetimeModels, BathtubHazardIsHighEarlyLowInTheMiddleAndRisesAtTheEnd) {
  const BathtubLifetime m(kPaperLike);
  EXPECT_GT(m.hazard(0.1), 5 * m.hazard(12.0));
  EXPECT_GT(m.hazard(24.3), 50 * m.hazard(12.0));
  EXPECT_TRUE(std::isinf(m.hazard(m.end_of_life())));
}

TEST(LifetimeModels, QuantileInvertsTheCdf) {
  const std::vector<LifetimeDistribution> models = {ExponentialLifetime{3.0}, WeibullLifetime{0.6, 5.0},
                                                    BathtubLifetime(kPaperLike)};
  for (const auto& m : models) {
    for (double u = 0.01; u < 0.99; u += 0.0137) {
      EXPECT_NEAR(m.cdf(m.quantile(u)), u, 1e-9) << m.name() << " u=" << u;
    }
  }
}

TEST(LifetimeModels, ResidualLifeIsConditionalOnAge) {
  // For the exponential the residual life has the same law (memorylessness): same draw, same value.
  const LifetimeDistribution e = ExponentialLifetime{4.0};
  EXPECT_NEAR(e.sample_residual(10.0, 0.3), e.sample(0.3), 1e-9);
  // For the bathtub, an instance aged 23 h dies within ~1.5 h whatever the draw.
  const LifetimeDistribution b = BathtubLifetime(kPaperLike);
  EXPECT_LE(b.sample_residual(23.0, 0.999), 1.5);
}

TEST(LifetimeModels, MeanOfMinimumMatchesClosedForms) {
  EXPECT_DOUBLE_EQ(ExponentialLifetime{8.0}.mean_of_minimum(4), 2.0);
  const WeibullLifetime w{2.0, 6.0};
  EXPECT_NEAR(w.mean_of_minimum(4), 6.0 * std::pow(4.0, -0.5) * std::tgamma(1.5), 1e-12);
  // Bathtub: min of n by simulation agrees with the quadrature.
  const BathtubLifetime m(kPaperLike);
  RandomStream rng(3, 0, StreamPurpose::kSpotLifetime, 0);
  double sum = 0;
  for (int i = 0; i < kSamples; ++i) {
    double lo = INFINITY;
    for (int k = 0; k < 4; ++k) lo = std::min(lo, m.quantile(rng.uniform_open01()));
    sum += lo;
  }
  EXPECT_NEAR(sum / kSamples, m.mean_of_minimum(4), 0.03 * m.mean_of_minimum(4));
}

TEST(LifetimeModels, KaplanMeierMatchesHandComputedValues) {
  // Events at 1, 3, 4; censored at 2 and 5.  S(1)=4/5, S(3)=4/5*2/3, S(4)=S(3)*1/2; mass beyond 5 sits at 5.
  const EmpiricalLifetime km({{1, true}, {2, false}, {3, true}, {4, true}, {5, false}});
  const double s1 = 0.8, s3 = 0.8 * 2.0 / 3.0, s4 = s3 * 0.5;
  EXPECT_NEAR(km.survival(1.0), s1, 1e-12);
  EXPECT_NEAR(km.survival(3.0), s3, 1e-12);
  EXPECT_NEAR(km.survival(4.0), s4, 1e-12);
  EXPECT_NEAR(km.survival(4.9), s4, 1e-12);
  EXPECT_EQ(km.survival(5.1), 0.0);
  EXPECT_NEAR(km.survival(0.5), std::sqrt(0.8), 1e-12);  // log-linear between knots
  EXPECT_EQ(km.event_count(), 3u);
  // The sampler follows the estimate.
  const LifetimeDistribution model = km;
  const auto x = draw(model, 5);
  EXPECT_LT(ks_distance(x, model), kKsCritical);
}

}  // namespace
}  // namespace spotsim

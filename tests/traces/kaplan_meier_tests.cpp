// Kaplan-Meier against values worked out by hand, for the fitting utility and for EmpiricalLifetime.
#include <gtest/gtest.h>

#include <cmath>

#include "model/market/empirical_lifetime.hpp"
#include "model/market/kaplan_meier.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "traces/fit/goodness_of_fit.hpp"

namespace spotsim {
namespace {

// Six VMs: preempted at 1, 3, 3, 5 h; stopped by their user (censored) at 2 and 4 h.
//   t=1: 6 at risk, 1 event -> S = 5/6
//   t=3: 4 at risk (3, 3, 4, 5), 2 events -> S = 5/6 * 2/4 = 5/12
//   t=5: 1 at risk, 1 event -> S = 0
const std::vector<LifetimeRecord> kRecords = {{3, true}, {2, false}, {1, true}, {5, true}, {4, false}, {3, true}};

TEST(KaplanMeier, MatchesHandComputedSteps) {
  const auto steps = kaplan_meier(kRecords);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].time, 1.0);
  EXPECT_EQ(steps[0].at_risk, 6u);
  EXPECT_DOUBLE_EQ(steps[0].survival, 5.0 / 6.0);
  EXPECT_EQ(steps[1].at_risk, 4u);
  EXPECT_EQ(steps[1].events, 2u);
  EXPECT_DOUBLE_EQ(steps[1].survival, 5.0 / 12.0);
  EXPECT_DOUBLE_EQ(steps[2].survival, 0.0);
  EXPECT_DOUBLE_EQ(kaplan_meier_survival(steps, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(kaplan_meier_survival(steps, 3.0), 5.0 / 12.0);  // right-continuous
  EXPECT_DOUBLE_EQ(kaplan_meier_survival(steps, 4.9), 5.0 / 12.0);
}

TEST(KaplanMeier, CensoringAtAnEventTimeCountsAsAtRisk) {
  // Preempted at 2 and stopped at 2: the stopped VM was still at risk at 2, so S(2) = 1 - 1/2.
  const auto steps = kaplan_meier({{2, true}, {2, false}});
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_DOUBLE_EQ(steps[0].survival, 0.5);
}

TEST(EmpiricalLifetime, KnotsAreTheKaplanMeierEstimate) {
  const EmpiricalLifetime model(kRecords);
  EXPECT_EQ(model.knot_times(), (std::vector<double>{0, 1, 3, 5}));
  ASSERT_EQ(model.knot_survival().size(), 4u);
  EXPECT_DOUBLE_EQ(model.knot_survival()[1], 5.0 / 6.0);
  EXPECT_DOUBLE_EQ(model.knot_survival()[2], 5.0 / 12.0);
  EXPECT_DOUBLE_EQ(model.knot_survival()[3], 0.0);
  EXPECT_DOUBLE_EQ(model.cdf(1.0), 1.0 / 6.0);
  // Between knots the survival is log-linear: S(2) = sqrt(S(1) S(3)).
  EXPECT_NEAR(model.survival(2.0), std::sqrt(5.0 / 6.0 * 5.0 / 12.0), 1e-12);
  EXPECT_EQ(model.event_count(), 4u);
  // Sampling by age: a VM that survived 3 h has at most 2 h left (the last record ends at 5 h).
  const LifetimeDistribution d(model);
  EXPECT_LE(d.sample_residual(3.0, 0.999), 2.0 + 1e-9);
}

TEST(EmpiricalCdf, CensoringAwareOrPreemptedOnly) {
  const EmpiricalCdf km = empirical_cdf(kRecords, true);
  EXPECT_EQ(km.times, (std::vector<double>{1, 3, 5}));
  EXPECT_DOUBLE_EQ(km.after[1], 7.0 / 12.0);
  EXPECT_DOUBLE_EQ(km.before[1], 1.0 / 6.0);
  const EmpiricalCdf plain = empirical_cdf(kRecords, false);  // 4 preempted: 1, 3, 3, 5
  EXPECT_DOUBLE_EQ(plain.after[0], 0.25);
  EXPECT_DOUBLE_EQ(plain.after[1], 0.75);
  EXPECT_DOUBLE_EQ(plain.after[2], 1.0);
}

TEST(GoodnessOfFit, KolmogorovSmirnovAndRSquaredByHand) {
  // ECDF of {1, 2, 3} against an exponential with mean 2: F = 1 - e^{-t/2} = 0.3935, 0.6321, 0.7769.
  // KS: the largest gap is at t = 1 before the step, |0.3935 - 0| = 1 - e^{-1/2}.
  const EmpiricalCdf e = empirical_cdf({{1, true}, {2, true}, {3, true}}, false);
  const auto cdf = [](double t) { return 1.0 - std::exp(-t / 2.0); };
  EXPECT_NEAR(ks_distance(e, cdf), 1.0 - std::exp(-0.5), 1e-12);
  // R^2 = 1 - sum (F_emp - F)^2 / sum (F_emp - 2/3)^2 with F_emp = 1/3, 2/3, 1 (total 2/9).
  const double residual = std::pow(1.0 / 3 - cdf(1), 2) + std::pow(2.0 / 3 - cdf(2), 2) + std::pow(1.0 - cdf(3), 2);
  EXPECT_NEAR(r_squared(e, cdf), 1.0 - residual / (2.0 / 9.0), 1e-12);
  EXPECT_NEAR(r_squared(e, cdf), 0.7543, 1e-4);  // the same, as a number
}

}  // namespace
}  // namespace spotsim

// The faster fitting code against the straightforward code it replaced, on random inputs: the likelihood over
// distinct durations, the one-pass likelihood, the residuals that keep their exponentials, the Weibull bisection
// that stops once its bracket is still, and all methods fitted together. Each must give the very same doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "model/random_streams.hpp"
#include "traces/fit/bathtub_fit.hpp"
#include "traces/fit/bathtub_residuals.hpp"
#include "traces/fit/distinct_lifetimes.hpp"
#include "traces/fit/lifetime_model_fits.hpp"
#include "traces/fit/parametric_fits.hpp"

namespace spotsim {
namespace {

// Lifetimes on a coarse grid (many ties, as in recordings), some exactly 0, about 40% censored.
std::vector<LifetimeRecord> random_records(std::size_t n, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamPurpose::kGenerator, 0);
  std::vector<LifetimeRecord> out;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = stream.uniform01();
    double hours = u < 0.3 ? -std::log(stream.uniform_open01()) : 24.0 * stream.uniform01();
    if (stream.uniform01() < 0.5) hours = std::round(hours * 4.0) / 4.0;  // a quarter-hour tick
    if (stream.uniform01() < 0.02) hours = 0.0;
    out.push_back({hours, stream.uniform01() >= 0.4});
  }
  out.push_back({5.0, true});  // at least one preemption of positive length
  return out;
}

BathtubParameters random_bathtub(RandomStream& s) {
  BathtubParameters p;
  p.A = 0.05 + 0.9 * s.uniform01();
  p.tau1_hours = 0.05 + 5.0 * s.uniform01();
  p.tau2_hours = 0.05 + 2.0 * s.uniform01();
  p.b_hours = 10.0 + 20.0 * s.uniform01();  // some of these put F above 1 before 24 h: infeasible
  return p;
}

// The likelihood as it was written before: longest preemption, then every censored record, then the sum.
double reference_bathtub_log_likelihood(const std::vector<LifetimeRecord>& records, const BathtubParameters& p) {
  if (bathtub_raw_cdf(p, longest_event(records)) > 1.0) return -INFINITY;
  for (const auto& r : records) {
    if (!r.preempted && bathtub_raw_cdf(p, r.hours) >= 1.0) return -INFINITY;
  }
  return censored_log_likelihood(
      records, [&](double t) { return bathtub_formula_density(p, t); },
      [&](double t) { return 1.0 - bathtub_raw_cdf(p, t); });
}

// The Weibull MLE as it was written before: 200 bisection steps, t^k of every record at each.
WeibullLifetime reference_weibull_mle(const std::vector<LifetimeRecord>& records) {
  double d = 0.0, scale_out = 0.0;
  for (const auto& r : records) {
    d += r.preempted ? 1.0 : 0.0;
    scale_out = std::max(scale_out, r.hours);
  }
  std::vector<double> x, log_x;
  double mean_event_log = 0.0;
  for (const auto& r : records) {
    const double t = std::max(r.hours, 1e-9) / scale_out;
    x.push_back(t);
    log_x.push_back(std::log(t));
    if (r.preempted) mean_event_log += std::log(t);
  }
  mean_event_log /= d;
  const auto profile = [&](double k) {
    double sum = 0.0, weighted = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double p = std::pow(x[i], k);
      sum += p;
      weighted += p * log_x[i];
    }
    return weighted / sum - 1.0 / k - mean_event_log;
  };
  double lo = std::log(0.02), hi = std::log(100.0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (profile(std::exp(mid)) > 0.0 ? hi : lo) = mid;
  }
  const double k = std::exp(0.5 * (lo + hi));
  double sum = 0.0;
  for (double t : x) sum += std::pow(t, k);
  return WeibullLifetime{k, scale_out * std::pow(sum / d, 1.0 / k)};
}

TEST(DistinctLifetimes, MapsEveryRecordToItsDuration) {
  const auto records = random_records(2000, 1);
  const DistinctLifetimes d = distinct_lifetimes(records);
  ASSERT_EQ(d.of_record.size(), records.size());
  EXPECT_LT(d.hours.size(), records.size());  // the grid makes ties
  for (std::size_t u = 1; u < d.hours.size(); ++u) EXPECT_LT(d.hours[u - 1], d.hours[u]);
  std::vector<char> event(d.hours.size(), 0), censored(d.hours.size(), 0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    ASSERT_EQ(d.hours[d.of_record[i]], records[i].hours);
    (records[i].preempted ? event : censored)[d.of_record[i]] = 1;
  }
  EXPECT_EQ(event, d.has_event);
  EXPECT_EQ(censored, d.has_censored);
}

TEST(BathtubLikelihood, OnePassAndDistinctTableEqualTheStraightforwardLoopBitForBit) {
  int feasible = 0, infeasible = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto records = random_records(300 + 50 * seed, seed);
    BathtubLikelihood table(records);
    RandomStream s(seed, 1, StreamPurpose::kGenerator, 0);
    for (int trial = 0; trial < 50; ++trial) {
      const BathtubParameters p = random_bathtub(s);
      const double reference = reference_bathtub_log_likelihood(records, p);
      ASSERT_EQ(bathtub_log_likelihood(records, p), reference) << "seed " << seed << " trial " << trial;
      ASSERT_EQ(table(p), reference) << "seed " << seed << " trial " << trial;
      (std::isfinite(reference) ? feasible : infeasible)++;
    }
  }
  EXPECT_GT(feasible, 100);  // both branches are exercised
  EXPECT_GT(infeasible, 100);
}

TEST(BathtubResiduals, EqualAFreshEvaluationAlongALevenbergMarquardtLikeSequence) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const EmpiricalCdf target = empirical_cdf(random_records(500, seed), seed % 2 == 0);
    BathtubResiduals cached(target);
    const auto n = static_cast<Eigen::Index>(target.times.size());
    Eigen::VectorXd r(n);
    RandomStream s(seed, 2, StreamPurpose::kGenerator, 0);
    int evaluations = 0;
    const auto check = [&](const BathtubParameters& p) {
      cached.evaluate(p, r);
      ++evaluations;
      for (Eigen::Index j = 0; j < n; ++j) {
        const auto at = static_cast<std::size_t>(j);
        ASSERT_EQ(r[j], bathtub_formula_cdf(p, target.times[at]) - target.after[at]) << "seed " << seed << " j " << j;
      }
    };
    for (int iteration = 0; iteration < 20; ++iteration) {
      const BathtubParameters base = random_bathtub(s);  // a trial point, accepted
      check(base);
      for (int moved = 0; moved < 4; ++moved) {  // the forward-difference Jacobian: one parameter at a time
        BathtubParameters p = base;
        double* field[] = {&p.A, &p.tau1_hours, &p.tau2_hours, &p.b_hours};
        *field[moved] *= 1.0 + 1e-7;
        check(p);
      }
      if (iteration % 3 == 0) check(base);  // a rejected trial returns to the base
    }
    // Reuse happens: evaluating afresh computes two vectors every time; one iteration (a trial and the four
    // Jacobian columns) needs 2 + 0 + 1 + 1 + 1 = 5 for its 5 evaluations.
    EXPECT_LE(cached.exponential_vectors_computed(), static_cast<std::uint64_t>(evaluations));
  }
}

TEST(WeibullFit, EqualsTheFull200StepBisection) {
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    const auto records = random_records(200 + 100 * seed, seed);
    const WeibullLifetime fast = fit_weibull_mle(records), reference = reference_weibull_mle(records);
    EXPECT_EQ(fast.shape, reference.shape) << "seed " << seed;
    EXPECT_EQ(fast.scale_hours, reference.scale_hours) << "seed " << seed;
  }
}

void expect_same_report(const LifetimeFitReport& a, const LifetimeFitReport& b) {
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.preempted, b.preempted);
  EXPECT_EQ(a.longest_hours, b.longest_hours);
  ASSERT_EQ(a.fits.size(), b.fits.size());
  for (std::size_t i = 0; i < a.fits.size(); ++i) {
    EXPECT_EQ(a.fits[i].model, b.fits[i].model);
    EXPECT_EQ(a.fits[i].parameters, b.fits[i].parameters) << a.fits[i].model;
    EXPECT_EQ(a.fits[i].r_squared, b.fits[i].r_squared) << a.fits[i].model;
    EXPECT_EQ(a.fits[i].ks_distance, b.fits[i].ks_distance) << a.fits[i].model;
    EXPECT_EQ(a.fits[i].log_likelihood, b.fits[i].log_likelihood) << a.fits[i].model;
    EXPECT_EQ(a.fits[i].converged, b.fits[i].converged) << a.fits[i].model;
  }
}

TEST(LifetimeFits, AllMethodsTogetherEqualEachMethodAlone) {
  const std::vector<FitMethod> all = {FitMethod::kMaximumLikelihood, FitMethod::kLeastSquaresEcdf,
                                      FitMethod::kLeastSquaresKaplanMeier};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto records = random_records(400, seed);
    const auto together = fit_lifetime_models(records, all);
    ASSERT_EQ(together.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(together[i].method, all[i]);
      expect_same_report(together[i], fit_lifetime_models(records, all[i]));
    }
  }
}

TEST(LifetimeFits, ProgressNamesEachStepAndReachesItsEnd) {
  std::map<std::string, std::vector<double>> seen;
  const FitProgress progress = [&](const std::string& step, double fraction) { seen[step].push_back(fraction); };
  fit_lifetime_models(random_records(300, 4), {FitMethod::kLeastSquaresEcdf, FitMethod::kMaximumLikelihood}, progress);
  for (const char* step :
       {"bathtub least squares on the ECDF", "bathtub least squares on 1 - Kaplan-Meier", "bathtub likelihood"}) {
    ASSERT_TRUE(seen.count(step)) << step;
    const auto& f = seen[step];
    EXPECT_EQ(f.front(), 0.0) << step;
    EXPECT_EQ(f.back(), 1.0) << step;
    for (std::size_t i = 1; i < f.size(); ++i) EXPECT_LE(f[i - 1], f[i]) << step;
  }
  EXPECT_EQ(seen["bathtub least squares on the ECDF"].size(), 13u);  // announced, then each of the 12 starts
}

}  // namespace
}  // namespace spotsim

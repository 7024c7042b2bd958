#pragma once
// The empirical CDF a model is compared with, and the two measures reported for every fit:
//
//  R^2 = 1 - sum_j (F_emp(t_j) - F(t_j))^2 / sum_j (F_emp(t_j) - mean F_emp)^2 over the distinct event times t_j
//        (the measure Kadupitiya et al., HPDC'20, report for their least-squares fits);
//  D   = sup_t |F_emp(t) - F(t)|, the Kolmogorov-Smirnov distance. For a continuous F the supremum is reached at
//        a jump of the step function F_emp, on one side or the other, so both F_emp(t_j-) and F_emp(t_j) are
//        checked (Conover, Practical Nonparametric Statistics, 3rd ed., sec. 6.1).
#include <algorithm>
#include <cmath>
#include <vector>

#include "model/market/empirical_lifetime.hpp"

namespace spotsim {

struct EmpiricalCdf {
  std::vector<double> times;   // distinct event times (hours), increasing
  std::vector<double> before;  // F_emp just before times[j]
  std::vector<double> after;   // F_emp at times[j]
};

// censoring_aware: 1 - Kaplan-Meier; otherwise the plain ECDF of the preempted records only (censored ones are
// dropped, as in the paper's fits of preempted VMs).
EmpiricalCdf empirical_cdf(const std::vector<LifetimeRecord>& records, bool censoring_aware);

template <typename Cdf>
double r_squared(const EmpiricalCdf& empirical, const Cdf& cdf) {
  double mean = 0.0;
  for (double f : empirical.after) mean += f;
  mean /= static_cast<double>(empirical.after.size());
  double residual = 0.0, total = 0.0;
  for (std::size_t j = 0; j < empirical.times.size(); ++j) {
    const double e = empirical.after[j] - cdf(empirical.times[j]);
    residual += e * e;
    total += (empirical.after[j] - mean) * (empirical.after[j] - mean);
  }
  return total > 0.0 ? 1.0 - residual / total : (residual == 0.0 ? 1.0 : 0.0);
}

template <typename Cdf>
double ks_distance(const EmpiricalCdf& empirical, const Cdf& cdf) {
  double d = 0.0;
  for (std::size_t j = 0; j < empirical.times.size(); ++j) {
    const double f = cdf(empirical.times[j]);
    d = std::max({d, std::abs(f - empirical.after[j]), std::abs(f - empirical.before[j])});
  }
  return d;
}

}  // namespace spotsim

#include "traces/fit/parametric_fits.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "traces/fit/bounded_optimizers.hpp"
#include "traces/fit/distinct_lifetimes.hpp"

namespace spotsim {

namespace {

std::size_t event_count(const std::vector<LifetimeRecord>& records) {
  const auto d = static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const auto& r) { return r.preempted; }));
  if (d == 0) throw InputError("lifetime fit: expected at least one preempted (uncensored) lifetime");
  return d;
}
}  // namespace

double longest_lifetime(const std::vector<LifetimeRecord>& records) {
  double longest = 0.0;
  for (const auto& r : records) longest = std::max(longest, r.hours);
  return longest;
}

double longest_event(const std::vector<LifetimeRecord>& records) {
  double longest = 0.0;
  for (const auto& r : records) {
    if (r.preempted) longest = std::max(longest, r.hours);
  }
  return longest;
}

ExponentialLifetime fit_exponential_mle(const std::vector<LifetimeRecord>& records) {
  const std::size_t d = event_count(records);
  double total = 0.0;
  for (const auto& r : records) total += r.hours;
  if (!(total > 0.0)) throw InputError("lifetime fit: expected some lifetime longer than 0");
  return ExponentialLifetime{total / static_cast<double>(d)};
}

WeibullLifetime fit_weibull_mle(const std::vector<LifetimeRecord>& records) {
  const std::size_t d = event_count(records);
  const double scale_out = longest_lifetime(records);  // work with t / t_max: t^k stays in [0, 1]
  if (!(scale_out > 0.0)) throw InputError("lifetime fit: expected some lifetime longer than 0");
  // t^k and ln t once per distinct duration; the sums still run over the records in order (distinct_lifetimes.hpp).
  const DistinctLifetimes distinct = distinct_lifetimes(records);
  const std::size_t u_count = distinct.hours.size();
  std::vector<double> x(u_count), log_x(u_count), power(u_count);
  for (std::size_t u = 0; u < u_count; ++u) {
    x[u] = std::max(distinct.hours[u], kShortestLifetimeHours) / scale_out;
    log_x[u] = std::log(x[u]);
  }
  const auto& of = distinct.of_record;
  double mean_event_log = 0.0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].preempted) mean_event_log += log_x[of[i]];
  }
  mean_event_log /= static_cast<double>(d);
  const auto profile = [&](double k) {
    for (std::size_t u = 0; u < u_count; ++u) power[u] = std::pow(x[u], k);
    double sum = 0.0, weighted = 0.0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const double p = power[of[i]];
      sum += p;
      weighted += p * log_x[of[i]];
    }
    return weighted / sum - 1.0 / k - mean_event_log;
  };
  double lo = std::log(0.02), hi = std::log(100.0);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi), was_lo = lo, was_hi = hi;
    (profile(std::exp(mid)) > 0.0 ? hi : lo) = mid;
    // The bracket no longer moves (about 55 halvings reach adjacent doubles). The next midpoint depends on the
    // bracket alone, so every later step would leave it unchanged too: stopping gives the 200-step k exactly.
    if (lo == was_lo && hi == was_hi) break;
  }
  const double k = std::exp(0.5 * (lo + hi));
  for (std::size_t u = 0; u < u_count; ++u) power[u] = std::pow(x[u], k);
  double sum = 0.0;
  for (std::size_t i = 0; i < records.size(); ++i) sum += power[of[i]];
  return WeibullLifetime{k, scale_out * std::pow(sum / static_cast<double>(d), 1.0 / k)};
}

ExponentialLifetime fit_exponential_least_squares(const EmpiricalCdf& target, ExponentialLifetime start) {
  const double t_max = target.times.back() > 0.0 ? target.times.back() : 1.0;
  const auto residuals = [&](const Eigen::VectorXd& p, Eigen::VectorXd& r) {
    const ExponentialLifetime m{p[0]};
    for (std::size_t j = 0; j < target.times.size(); ++j)
      r[static_cast<Eigen::Index>(j)] = m.cdf(target.times[j]) - target.after[j];
  };
  Eigen::VectorXd x0(1);
  x0 << start.mean_hours;
  const auto result =
      levenberg_marquardt(residuals, static_cast<int>(target.times.size()), x0, {{1e-4 * t_max, 1e3 * t_max}});
  return ExponentialLifetime{result.parameters[0]};
}

WeibullLifetime fit_weibull_least_squares(const EmpiricalCdf& target, WeibullLifetime start) {
  const double t_max = target.times.back() > 0.0 ? target.times.back() : 1.0;
  const auto residuals = [&](const Eigen::VectorXd& p, Eigen::VectorXd& r) {
    const WeibullLifetime m{p[0], p[1]};
    for (std::size_t j = 0; j < target.times.size(); ++j)
      r[static_cast<Eigen::Index>(j)] = m.cdf(target.times[j]) - target.after[j];
  };
  Eigen::VectorXd x0(2);
  x0 << std::clamp(start.shape, 0.06, 19.0), std::clamp(start.scale_hours, 2e-4 * t_max, 500.0 * t_max);
  const auto result = levenberg_marquardt(residuals, static_cast<int>(target.times.size()), x0,
                                          {{0.05, 20.0}, {1e-4 * t_max, 1e3 * t_max}});
  return WeibullLifetime{result.parameters[0], result.parameters[1]};
}

double censored_log_likelihood(const std::vector<LifetimeRecord>& records, const std::function<double(double)>& density,
                               const std::function<double(double)>& survival) {
  double total = 0.0;
  for (const auto& r : records) {
    const double t = std::max(r.hours, kShortestLifetimeHours);
    total += std::log(r.preempted ? density(t) : survival(t));
  }
  return total;
}

}  // namespace spotsim

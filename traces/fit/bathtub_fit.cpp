#include "traces/fit/bathtub_fit.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "traces/fit/bathtub_residuals.hpp"
#include "traces/fit/bounded_optimizers.hpp"
#include "traces/fit/parametric_fits.hpp"

namespace spotsim {

namespace {

BathtubParameters from_vector(const Eigen::VectorXd& x) {
  BathtubParameters p;
  p.A = x[0];
  p.tau1_hours = x[1];
  p.tau2_hours = x[2];
  p.b_hours = x[3];
  return p;
}

Eigen::VectorXd to_vector(const BathtubParameters& p) {
  Eigen::VectorXd x(4);
  x << p.A, p.tau1_hours, p.tau2_hours, p.b_hours;
  return x;
}

std::vector<ParameterBounds> bathtub_bounds(double t_max) {
  return {{1e-4, 1.0}, {1e-4 * t_max, 10.0 * t_max}, {1e-4 * t_max, t_max}, {1e-4 * t_max, 3.0 * t_max}};
}

}  // namespace

double bathtub_raw_cdf(const BathtubParameters& p, double t) {
  return p.A * (1.0 - std::exp(-t / p.tau1_hours) + std::exp((t - p.b_hours) / p.tau2_hours));
}

double bathtub_formula_cdf(const BathtubParameters& p, double t) {
  if (t < 0.0) return 0.0;
  return std::clamp(bathtub_raw_cdf(p, t), 0.0, 1.0);
}

double bathtub_formula_density(const BathtubParameters& p, double t) {
  if (t < 0.0) return 0.0;
  return p.A * (std::exp(-t / p.tau1_hours) / p.tau1_hours + std::exp((t - p.b_hours) / p.tau2_hours) / p.tau2_hours);
}

BathtubFit fit_bathtub_least_squares(const EmpiricalCdf& target, const StepProgress& progress) {
  if (target.times.empty()) throw InputError("bathtub fit: expected at least one preempted lifetime");
  const double t_max = target.times.back();
  if (!(t_max > 0.0)) throw InputError("bathtub fit: expected a preempted lifetime longer than 0");
  const auto bounds = bathtub_bounds(t_max);
  const auto n = static_cast<int>(target.times.size());
  BathtubResiduals cached(target);
  const auto residuals = [&](const Eigen::VectorXd& x, Eigen::VectorXd& r) { cached.evaluate(from_vector(x), r); };
  // A: the plateau between the two rushes, read off the empirical CDF at mid-life.
  const auto mid = std::upper_bound(target.times.begin(), target.times.end(), 0.5 * t_max) - target.times.begin();
  const double plateau = std::clamp(mid > 0 ? target.after[static_cast<std::size_t>(mid) - 1] : 0.5, 0.02, 0.98);
  BathtubFit best;
  double best_cost = INFINITY;
  int starts_done = 0;
  for (double tau1 : {0.02, 0.1, 0.3}) {
    for (double tau2 : {0.01, 0.05}) {
      for (double b : {1.0, 1.05}) {
        BathtubParameters start;
        start.A = plateau;
        start.tau1_hours = tau1 * t_max;
        start.tau2_hours = tau2 * t_max;
        start.b_hours = b * t_max;
        const auto result = levenberg_marquardt(residuals, n, to_vector(start), bounds);
        if (result.value < best_cost) {
          best_cost = result.value;
          best.parameters = from_vector(result.parameters);
          best.converged = result.converged;
        }
        if (progress) progress(++starts_done / 12.0);
      }
    }
  }
  return best;
}

BathtubFit fit_bathtub_mle(const std::vector<LifetimeRecord>& records, const std::vector<BathtubParameters>& starts,
                           const StepProgress& progress) {
  const double t_max = longest_event(records);
  if (!(t_max > 0.0)) throw InputError("bathtub fit: expected a preempted lifetime longer than 0");
  const auto bounds = bathtub_bounds(t_max);
  BathtubLikelihood log_likelihood(records);
  const auto objective = [&](const Eigen::VectorXd& x) { return -log_likelihood(from_vector(x)); };
  BathtubFit best;
  double best_value = INFINITY;
  for (const BathtubParameters& start : starts) {
    // Move the start inside the feasible set: a later deadline rush (larger b), then a lower plateau.
    BathtubParameters p = start;
    for (int i = 0; i < 400 && !std::isfinite(log_likelihood(p)); ++i) {
      if (p.b_hours + p.tau2_hours < 0.999 * bounds[3].upper)
        p.b_hours += p.tau2_hours;
      else
        p.A = std::max(0.9 * p.A, 2e-4);
    }
    // Two passes: restarting the simplex at its own optimum guards against a collapsed simplex stopping early.
    const double passes = 2.0 * static_cast<double>(starts.size());
    auto result = nelder_mead(objective, to_vector(p), bounds);
    if (progress) progress((2.0 * static_cast<double>(&start - starts.data()) + 1.0) / passes);
    result = nelder_mead(objective, result.parameters, bounds);
    if (progress) progress((2.0 * static_cast<double>(&start - starts.data()) + 2.0) / passes);
    if (result.value < best_value || best_value == INFINITY) {
      best_value = result.value;
      best.parameters = std::isfinite(result.value) ? from_vector(result.parameters) : p;
      best.converged = result.converged && std::isfinite(result.value);
    }
  }
  return best;
}

}  // namespace spotsim

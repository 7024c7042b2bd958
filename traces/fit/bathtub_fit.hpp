#pragma once
// Fitting the bathtub CDF of Kadupitiya, Jadhao & Sharma (HPDC'20, arXiv 1911.05160, eq. 1)
//
//   F(t) = A * (1 - exp(-t/tau1) + exp((t - b)/tau2))
//
// by least squares on an empirical CDF (Levenberg-Marquardt, as the paper fits it) and by censored maximum
// likelihood (Nelder-Mead on -log L, started from the least-squares fit).
//
// Bounds keep every fit meaningful whatever the data (with t_max the longest preempted lifetime):
//   A in [1e-4, 1], tau1 in [1e-4, 10] t_max, tau2 in [1e-4, 1] t_max, b in [1e-4, 3] t_max.
// Least squares starts from a small grid (tau1 in {0.02, 0.1, 0.3} t_max, tau2 in {0.01, 0.05} t_max,
// b in {1, 1.05} t_max, A = the empirical CDF at t_max / 2) and keeps the best: the early-life and deadline terms
// are nearly separable, and a poor start can let the deadline term swallow the early-life one.
#include <functional>
#include <vector>

#include "model/market/bathtub_lifetime.hpp"
#include "model/market/empirical_lifetime.hpp"
#include "traces/fit/bathtub_likelihood.hpp"
#include "traces/fit/goodness_of_fit.hpp"

namespace spotsim {

// The formula above as it stands, and clamped to [0, 1] (no cap: fits use the formula itself).
double bathtub_raw_cdf(const BathtubParameters& p, double t);
double bathtub_formula_cdf(const BathtubParameters& p, double t);
double bathtub_formula_density(const BathtubParameters& p, double t);

struct BathtubFit {
  BathtubParameters parameters;
  bool converged = false;
};

// Told the fraction of a long fit done (0..1] after each start or pass; may be empty.
using StepProgress = std::function<void(double fraction)>;

BathtubFit fit_bathtub_least_squares(const EmpiricalCdf& target, const StepProgress& progress = {});

// Maximizes the censored log-likelihood subject to F(t) <= 1 up to the longest preempted lifetime (the model gives
// no density beyond the point where F reaches 1) and F(t) < 1 at every censored lifetime.
// Each start is first moved into the feasible set; the best optimum over the starts is kept.
BathtubFit fit_bathtub_mle(const std::vector<LifetimeRecord>& records, const std::vector<BathtubParameters>& starts,
                           const StepProgress& progress = {});

}  // namespace spotsim

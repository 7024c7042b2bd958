#pragma once
// Exponential and Weibull lifetimes fitted to right-censored records, by maximum likelihood and by least squares
// on an empirical CDF; and the censored log-likelihood every fitted model is scored with.
//
// Censored likelihood (Lawless, Statistical Models and Methods for Lifetime Data, 2nd ed., sec. 2.2):
//   log L = sum over preempted records of log f(t_i) + sum over censored records of log S(t_i).
#include <functional>
#include <vector>

#include "model/market/empirical_lifetime.hpp"
#include "model/market/exponential_lifetime.hpp"
#include "model/market/weibull_lifetime.hpp"
#include "traces/fit/goodness_of_fit.hpp"

namespace spotsim {

// Lifetimes of 0 are taken as this long wherever a logarithm or a density needs a positive time (start-up failures).
constexpr double kShortestLifetimeHours = 1e-9;

// Exponential MLE, closed form: mean = (total time observed, censored included) / (number of preemptions).
ExponentialLifetime fit_exponential_mle(const std::vector<LifetimeRecord>& records);

// Weibull MLE. The scale is profiled out, scale^k = sum t_i^k / d, leaving one equation in the shape k
// (Lawless, sec. 5.2.2, eq. 5.2.8):
//   sum_all t^k ln t / sum_all t^k - 1/k - (1/d) sum_events ln t = 0,
// whose left side increases in k, so it is solved by bisection on log k in [0.02, 100]. Lifetimes of 0 are
// taken as 1e-9 h (log 0 is undefined; such records are start-up failures).
WeibullLifetime fit_weibull_mle(const std::vector<LifetimeRecord>& records);

ExponentialLifetime fit_exponential_least_squares(const EmpiricalCdf& target, ExponentialLifetime start);
WeibullLifetime fit_weibull_least_squares(const EmpiricalCdf& target, WeibullLifetime start);

// log L of the records under a model given by its density and survival functions.
double censored_log_likelihood(const std::vector<LifetimeRecord>& records, const std::function<double(double)>& density,
                               const std::function<double(double)>& survival);

// The longest lifetime among the records (preempted or not), and among preempted ones only.
double longest_lifetime(const std::vector<LifetimeRecord>& records);
double longest_event(const std::vector<LifetimeRecord>& records);

}  // namespace spotsim

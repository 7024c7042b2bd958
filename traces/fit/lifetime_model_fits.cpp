#include "traces/fit/lifetime_model_fits.hpp"

#include <algorithm>
#include <cmath>

#include "traces/fit/bathtub_fit.hpp"
#include "traces/fit/goodness_of_fit.hpp"
#include "traces/fit/parametric_fits.hpp"

namespace spotsim {

std::string fit_method_name(FitMethod method) {
  switch (method) {
    case FitMethod::kLeastSquaresEcdf: return "lsq-ecdf";
    case FitMethod::kLeastSquaresKaplanMeier: return "lsq-km";
    case FitMethod::kMaximumLikelihood: return "mle";
  }
  return "";
}

std::optional<FitMethod> parse_fit_method(const std::string& name) {
  for (FitMethod m : {FitMethod::kLeastSquaresEcdf, FitMethod::kLeastSquaresKaplanMeier, FitMethod::kMaximumLikelihood}) {
    if (fit_method_name(m) == name) return m;
  }
  return std::nullopt;
}

namespace {

template <typename Cdf>
void score(ModelFit& fit, const EmpiricalCdf& target, const Cdf& cdf) {
  fit.r_squared = r_squared(target, cdf);
  fit.ks_distance = ks_distance(target, cdf);
}

}  // namespace

LifetimeFitReport fit_lifetime_models(const std::vector<LifetimeRecord>& records, FitMethod method) {
  LifetimeFitReport report;
  report.method = method;
  report.records = records.size();
  report.preempted = static_cast<std::size_t>(std::count_if(records.begin(), records.end(), [](const auto& r) { return r.preempted; }));
  report.longest_hours = longest_lifetime(records);
  const bool least_squares = method != FitMethod::kMaximumLikelihood;
  const EmpiricalCdf target = empirical_cdf(records, method != FitMethod::kLeastSquaresEcdf);

  const ExponentialLifetime exp_mle = fit_exponential_mle(records);
  const WeibullLifetime weibull_mle = fit_weibull_mle(records);
  const ExponentialLifetime exp = least_squares ? fit_exponential_least_squares(target, exp_mle) : exp_mle;
  const WeibullLifetime weibull = least_squares ? fit_weibull_least_squares(target, weibull_mle) : weibull_mle;

  ModelFit e{"exponential", {{"mean_hours", exp.mean_hours}}, LifetimeDistribution(exp)};
  score(e, target, [&](double t) { return exp.cdf(t); });
  e.log_likelihood = censored_log_likelihood(
      records, [&](double t) { return std::exp(-t / exp.mean_hours) / exp.mean_hours; },
      [&](double t) { return 1.0 - exp.cdf(t); });
  ModelFit w{"weibull", {{"shape", weibull.shape}, {"scale_hours", weibull.scale_hours}}, LifetimeDistribution(weibull)};
  score(w, target, [&](double t) { return weibull.cdf(t); });
  w.log_likelihood = censored_log_likelihood(
      records, [&](double t) { return weibull.hazard(t) * (1.0 - weibull.cdf(t)); },
      [&](double t) { return 1.0 - weibull.cdf(t); });

  // Likelihood search starts from both least-squares fits (on 1 - KM and on the ECDF of preemptions).
  BathtubFit bathtub = fit_bathtub_least_squares(target);
  if (method == FitMethod::kMaximumLikelihood) {
    const BathtubFit on_ecdf = fit_bathtub_least_squares(empirical_cdf(records, false));
    bathtub = fit_bathtub_mle(records, {bathtub.parameters, on_ecdf.parameters});
  }
  // No instance outlives the recording's longest lifetime: cap there, rounded up to a tenth of an hour.
  bathtub.parameters.cap_hours = std::max(0.1, std::ceil(report.longest_hours * 10.0) / 10.0);
  const BathtubParameters& p = bathtub.parameters;
  ModelFit b{"bathtub",
             {{"A", p.A}, {"tau1_hours", p.tau1_hours}, {"tau2_hours", p.tau2_hours}, {"b_hours", p.b_hours}, {"cap_hours", p.cap_hours}},
             LifetimeDistribution(BathtubLifetime(p))};
  b.converged = bathtub.converged;
  score(b, target, [&](double t) { return bathtub_formula_cdf(p, t); });
  b.log_likelihood = bathtub_log_likelihood(records, p);
  report.fits = {std::move(e), std::move(w), std::move(b)};
  return report;
}

}  // namespace spotsim

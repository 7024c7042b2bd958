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
  for (FitMethod m :
       {FitMethod::kLeastSquaresEcdf, FitMethod::kLeastSquaresKaplanMeier, FitMethod::kMaximumLikelihood}) {
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

// What several methods have in common, each computed once on first use. Every piece is a deterministic function
// of the records, so sharing it changes no number.
class SharedFits {
 public:
  SharedFits(const std::vector<LifetimeRecord>& records, const FitProgress& progress)
      : records_(records), progress_(progress) {}

  const EmpiricalCdf& target(bool censoring_aware) {
    auto& slot = censoring_aware ? km_ : ecdf_;
    if (!slot) slot = empirical_cdf(records_, censoring_aware);
    return *slot;
  }
  ExponentialLifetime exponential_mle() {
    if (!exponential_) exponential_ = fit_exponential_mle(records_);
    return *exponential_;
  }
  WeibullLifetime weibull_mle() {
    if (!weibull_) {
      report("Weibull likelihood", 0.0);
      weibull_ = fit_weibull_mle(records_);
    }
    return *weibull_;
  }
  const BathtubFit& bathtub_least_squares(bool censoring_aware) {
    auto& slot = censoring_aware ? bathtub_km_ : bathtub_ecdf_;
    if (!slot) {
      const std::string step =
          censoring_aware ? "bathtub least squares on 1 - Kaplan-Meier" : "bathtub least squares on the ECDF";
      const EmpiricalCdf& on = target(censoring_aware);
      report(step, 0.0);
      slot = fit_bathtub_least_squares(on, stepper(step));
    }
    return *slot;
  }
  void report(const std::string& step, double fraction) const {
    if (progress_) progress_(step, fraction);
  }
  StepProgress stepper(const std::string& step) const {
    if (!progress_) return {};
    return [this, step](double fraction) { progress_(step, fraction); };
  }

 private:
  const std::vector<LifetimeRecord>& records_;
  const FitProgress& progress_;
  std::optional<EmpiricalCdf> ecdf_, km_;
  std::optional<ExponentialLifetime> exponential_;
  std::optional<WeibullLifetime> weibull_;
  std::optional<BathtubFit> bathtub_ecdf_, bathtub_km_;
};

LifetimeFitReport fit_one_method(const std::vector<LifetimeRecord>& records, FitMethod method, SharedFits& shared) {
  LifetimeFitReport report;
  report.method = method;
  report.records = records.size();
  report.preempted = static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const auto& r) { return r.preempted; }));
  report.longest_hours = longest_lifetime(records);
  const bool least_squares = method != FitMethod::kMaximumLikelihood;
  const bool censoring_aware = method != FitMethod::kLeastSquaresEcdf;
  const EmpiricalCdf& target = shared.target(censoring_aware);

  const ExponentialLifetime exp_mle = shared.exponential_mle();
  const WeibullLifetime weibull_mle = shared.weibull_mle();
  if (least_squares) shared.report("exponential and Weibull least squares (" + fit_method_name(method) + ")", 0.0);
  const ExponentialLifetime exp = least_squares ? fit_exponential_least_squares(target, exp_mle) : exp_mle;
  const WeibullLifetime weibull = least_squares ? fit_weibull_least_squares(target, weibull_mle) : weibull_mle;

  ModelFit e{"exponential", {{"mean_hours", exp.mean_hours}}, LifetimeDistribution(exp)};
  score(e, target, [&](double t) { return exp.cdf(t); });
  e.log_likelihood = censored_log_likelihood(
      records, [&](double t) { return std::exp(-t / exp.mean_hours) / exp.mean_hours; },
      [&](double t) { return 1.0 - exp.cdf(t); });
  ModelFit w{
      "weibull", {{"shape", weibull.shape}, {"scale_hours", weibull.scale_hours}}, LifetimeDistribution(weibull)};
  score(w, target, [&](double t) { return weibull.cdf(t); });
  w.log_likelihood = censored_log_likelihood(
      records, [&](double t) { return weibull.hazard(t) * (1.0 - weibull.cdf(t)); },
      [&](double t) { return 1.0 - weibull.cdf(t); });

  // Likelihood search starts from both least-squares fits (on 1 - KM and on the ECDF of preemptions).
  BathtubFit bathtub = shared.bathtub_least_squares(censoring_aware);
  if (method == FitMethod::kMaximumLikelihood) {
    const BathtubParameters on_ecdf = shared.bathtub_least_squares(false).parameters;
    shared.report("bathtub likelihood", 0.0);
    bathtub = fit_bathtub_mle(records, {bathtub.parameters, on_ecdf}, shared.stepper("bathtub likelihood"));
  }
  // No instance outlives the recording's longest lifetime: cap there, rounded up to a tenth of an hour.
  bathtub.parameters.cap_hours = std::max(0.1, std::ceil(report.longest_hours * 10.0) / 10.0);
  const BathtubParameters& p = bathtub.parameters;
  ModelFit b{"bathtub",
             {{"A", p.A},
              {"tau1_hours", p.tau1_hours},
              {"tau2_hours", p.tau2_hours},
              {"b_hours", p.b_hours},
              {"cap_hours", p.cap_hours}},
             LifetimeDistribution(BathtubLifetime(p))};
  b.converged = bathtub.converged;
  score(b, target, [&](double t) { return bathtub_formula_cdf(p, t); });
  b.log_likelihood = bathtub_log_likelihood(records, p);
  report.fits = {std::move(e), std::move(w), std::move(b)};
  return report;
}

}  // namespace

LifetimeFitReport fit_lifetime_models(const std::vector<LifetimeRecord>& records, FitMethod method) {
  return fit_lifetime_models(records, std::vector<FitMethod>{method}).front();
}

std::vector<LifetimeFitReport> fit_lifetime_models(const std::vector<LifetimeRecord>& records,
                                                   const std::vector<FitMethod>& methods, const FitProgress& progress) {
  SharedFits shared(records, progress);
  std::vector<LifetimeFitReport> reports;
  for (FitMethod m : methods) reports.push_back(fit_one_method(records, m, shared));
  return reports;
}

}  // namespace spotsim

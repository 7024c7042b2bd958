#pragma once
// Fits exponential, Weibull and bathtub lifetimes to one sample with one method and scores each the same way,
// so that users see which model describes their data (`spotsim trace fit`).
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/market/lifetime_distribution.hpp"

namespace spotsim {

enum class FitMethod {
  kLeastSquaresEcdf,         // "lsq-ecdf": least squares on the ECDF of preempted records (the paper's method)
  kLeastSquaresKaplanMeier,  // "lsq-km": least squares on 1 - Kaplan-Meier (censoring-aware)
  kMaximumLikelihood,        // "mle": censored maximum likelihood
};

std::string fit_method_name(FitMethod method);
// nullopt for an unknown name.
std::optional<FitMethod> parse_fit_method(const std::string& name);

struct ModelFit {
  std::string model;  // exponential | weibull | bathtub
  std::vector<std::pair<std::string, double>> parameters;
  std::optional<LifetimeDistribution> distribution;  // ready to put in a trace
  double r_squared = 0.0;                            // against the method's empirical CDF (1 - KM for mle)
  double ks_distance = 0.0;                          // likewise
  double log_likelihood = 0.0;  // censored log L of all records (-inf if the model excludes some record)
  bool converged = true;
};

struct LifetimeFitReport {
  FitMethod method = FitMethod::kLeastSquaresEcdf;
  std::size_t records = 0;
  std::size_t preempted = 0;
  double longest_hours = 0.0;
  std::vector<ModelFit> fits;  // exponential, weibull, bathtub
};

// Told what is being fitted (e.g. "bathtub least squares on 1 - Kaplan-Meier") and the fraction of that step done,
// between the steps of a fit; for a progress line.
using FitProgress = std::function<void(const std::string& step, double fraction)>;

// InputError if the records hold no preemption of positive length.
LifetimeFitReport fit_lifetime_models(const std::vector<LifetimeRecord>& records, FitMethod method);

// One report per method, in order, each identical to fit_lifetime_models(records, method). The methods share what
// they have in common (the Kaplan-Meier and ECDF targets, the exponential and Weibull likelihood fits, and the
// bathtub least-squares fits the likelihood search starts from), so all three cost about as much as mle alone.
std::vector<LifetimeFitReport> fit_lifetime_models(const std::vector<LifetimeRecord>& records,
                                                   const std::vector<FitMethod>& methods,
                                                   const FitProgress& progress = {});

}  // namespace spotsim

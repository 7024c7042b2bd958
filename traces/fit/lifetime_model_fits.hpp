#pragma once
// Fits exponential, Weibull and bathtub lifetimes to one sample with one method and scores each the same way,
// so that users see which model describes their data (`spotsim trace fit`).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "traces/lifetime_distribution.hpp"

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
  double r_squared = 0.0;       // against the method's empirical CDF (1 - KM for mle)
  double ks_distance = 0.0;     // likewise
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

// InputError if the records hold no preemption of positive length.
LifetimeFitReport fit_lifetime_models(const std::vector<LifetimeRecord>& records, FitMethod method);

}  // namespace spotsim

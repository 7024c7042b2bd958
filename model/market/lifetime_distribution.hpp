#pragma once
// One value type for every lifetime model of a spot instance. A closed std::variant rather than a virtual
// interface: sampling sits on the engine's hot path, and a visit over a handful of alternatives compiles to a
// jump table with no allocation. Times are in hours.
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "model/market/bathtub_lifetime.hpp"
#include "model/market/empirical_lifetime.hpp"
#include "model/market/exponential_lifetime.hpp"
#include "model/market/weibull_lifetime.hpp"

namespace spotsim {

class LifetimeDistribution {
 public:
  using Model = std::variant<ExponentialLifetime, WeibullLifetime, BathtubLifetime, EmpiricalLifetime>;

  // Implicit from any model alternative (ExponentialLifetime{...} converts directly).
  template <typename M>
  requires std::is_constructible_v<Model, M&&> LifetimeDistribution(M&& model)
      : model_(std::forward<M>(model)) {}  // NOLINT(google-explicit-constructor)

  const Model& model() const { return model_; }
  std::string name() const;

  double cdf(double t) const {
    return std::visit([t](const auto& m) { return m.cdf(t); }, model_);
  }
  double hazard(double t) const {
    return std::visit([t](const auto& m) { return m.hazard(t); }, model_);
  }
  double mean() const {
    return std::visit([](const auto& m) { return m.mean(); }, model_);
  }
  double quantile(double u) const {
    return std::visit([u](const auto& m) { return m.quantile(u); }, model_);
  }
  double mean_of_minimum(int n) const {
    return std::visit([n](const auto& m) { return m.mean_of_minimum(n); }, model_);
  }
  // A fresh instance's lifetime from a uniform draw u in (0, 1), by inversion.
  double sample(double u) const { return quantile(u); }
  // Remaining lifetime of an instance that has survived to `age`: invert F on [F(age), 1).
  double sample_residual(double age, double u) const {
    const double f = cdf(age);
    if (f >= 1.0) return 0.0;
    const double t = quantile(f + u * (1.0 - f));
    return t > age ? t - age : 0.0;
  }

 private:
  Model model_;
};

}  // namespace spotsim

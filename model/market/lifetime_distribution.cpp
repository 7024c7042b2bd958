#include "model/market/lifetime_distribution.hpp"

namespace spotsim {

namespace {
struct ModelName {
  std::string operator()(const ExponentialLifetime&) const { return "exponential"; }
  std::string operator()(const WeibullLifetime&) const { return "weibull"; }
  std::string operator()(const BathtubLifetime&) const { return "bathtub"; }
  std::string operator()(const EmpiricalLifetime&) const { return "empirical"; }
};
}  // namespace

std::string LifetimeDistribution::name() const { return std::visit(ModelName{}, model_); }

}  // namespace spotsim

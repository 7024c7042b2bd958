#pragma once
// The least-squares residuals r_j = F(t_j) - F_emp(t_j) of the bathtub formula (bathtub_fit.hpp), computed so that
// Levenberg-Marquardt's forward-difference Jacobian is cheap.
//
// F(t) = A (1 - e1(t) + e2(t)) with e1 = exp(-t/tau1) and e2 = exp((t - b)/tau2). The Jacobian moves one parameter
// at a time away from the current point: moving A needs neither exponential again, moving tau1 only e1, moving tau2
// or b only e2. The last two vectors of each exponential are kept (keyed by their parameters), so an iteration
// costs 5 exponentials per time instead of 10. The kept values are the very doubles a fresh evaluation would give,
// so every residual is bit-identical to bathtub_formula_cdf(p, t_j) - F_emp(t_j).
#include <Eigen/Dense>
#include <array>
#include <cstdint>
#include <vector>

#include "model/market/bathtub_lifetime.hpp"
#include "traces/fit/goodness_of_fit.hpp"

namespace spotsim {

class BathtubResiduals {
 public:
  // Keeps a reference to `target`: it must outlive this object.
  explicit BathtubResiduals(const EmpiricalCdf& target) : target_(target) {}

  // `residuals` must hold target.times.size() values.
  void evaluate(const BathtubParameters& p, Eigen::VectorXd& residuals);

  // How many exponential vectors were computed (for tests: reuse must actually happen).
  std::uint64_t exponential_vectors_computed() const { return computed_; }

 private:
  struct Kept {
    double key1 = 0.0, key2 = 0.0;  // tau1; or tau2 and b
    std::uint64_t last_use = 0;     // 0 = empty
    std::vector<double> values;
  };
  // The kept vector for these keys, computing it (over the least recently used slot) if absent.
  const std::vector<double>& early(double tau1);
  const std::vector<double>& late(double tau2, double b);
  Kept& slot_for(std::array<Kept, 2>& slots, double key1, double key2, bool& found);

  const EmpiricalCdf& target_;
  std::array<Kept, 2> early_{}, late_{};
  std::uint64_t clock_ = 0;
  std::uint64_t computed_ = 0;
};

}  // namespace spotsim

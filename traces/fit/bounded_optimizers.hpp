#pragma once
// Two small optimizers for fitting lifetime models, both over box-bounded parameters:
//
//  - Levenberg-Marquardt for least squares (Marquardt, "An algorithm for least-squares estimation of nonlinear
//    parameters", J. SIAM 11(2), 1963; Nocedal & Wright, Numerical Optimization, 2nd ed., sec. 10.3), with
//    Marquardt's diagonal scaling and a forward-difference Jacobian;
//  - Nelder-Mead simplex for a general objective such as a negative log-likelihood (Nelder & Mead, Computer
//    Journal 7(4), 1965; standard coefficients 1, 2, 1/2, 1/2).
//
// Bounds are enforced by optimizing an unbounded z with x = lo + (hi - lo) / (1 + exp(-z)): every trial point is
// inside the box, so a model is never evaluated at a meaningless parameter (negative time scale, A > 1).
#include <Eigen/Dense>
#include <functional>
#include <vector>

namespace spotsim {

struct ParameterBounds {
  double lower;
  double upper;
};

double to_bounded(double z, const ParameterBounds& bounds);
double to_unbounded(double x, const ParameterBounds& bounds);

// Fills `residuals` (already sized) for the parameters.
using ResidualFunction = std::function<void(const Eigen::VectorXd& parameters, Eigen::VectorXd& residuals)>;
// May return +infinity for an infeasible point; the simplex then steps away from it.
using ObjectiveFunction = std::function<double(const Eigen::VectorXd& parameters)>;

struct OptimizerResult {
  Eigen::VectorXd parameters;
  double value = 0.0;  // sum of squared residuals, or the objective
  int iterations = 0;
  bool converged = false;
};

OptimizerResult levenberg_marquardt(const ResidualFunction& residuals, int residual_count, const Eigen::VectorXd& start,
                                    const std::vector<ParameterBounds>& bounds, int max_iterations = 300);

OptimizerResult nelder_mead(const ObjectiveFunction& objective, const Eigen::VectorXd& start,
                            const std::vector<ParameterBounds>& bounds, int max_iterations = 5000);

}  // namespace spotsim

#include "traces/fit/bounded_optimizers.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace spotsim {

double to_bounded(double z, const ParameterBounds& b) { return b.lower + (b.upper - b.lower) / (1.0 + std::exp(-z)); }

double to_unbounded(double x, const ParameterBounds& b) {
  // Keep the start strictly inside the box: the logit of a bound is infinite.
  const double u = std::clamp((x - b.lower) / (b.upper - b.lower), 1e-9, 1.0 - 1e-9);
  return std::log(u / (1.0 - u));
}

namespace {

Eigen::VectorXd bounded(const Eigen::VectorXd& z, const std::vector<ParameterBounds>& bounds) {
  Eigen::VectorXd x(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) x[i] = to_bounded(z[i], bounds[static_cast<std::size_t>(i)]);
  return x;
}

Eigen::VectorXd unbounded(const Eigen::VectorXd& x, const std::vector<ParameterBounds>& bounds) {
  Eigen::VectorXd z(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) z[i] = to_unbounded(x[i], bounds[static_cast<std::size_t>(i)]);
  return z;
}

}  // namespace

OptimizerResult levenberg_marquardt(const ResidualFunction& residuals, int residual_count, const Eigen::VectorXd& start,
                                    const std::vector<ParameterBounds>& bounds, int max_iterations) {
  const Eigen::Index n = start.size();
  Eigen::VectorXd z = unbounded(start, bounds);
  Eigen::VectorXd r(residual_count), trial_r(residual_count), shifted(residual_count);
  residuals(bounded(z, bounds), r);
  double cost = r.squaredNorm();
  double lambda = 1e-3;
  Eigen::MatrixXd jacobian(residual_count, n);
  OptimizerResult result;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    result.iterations = iteration + 1;
    for (Eigen::Index j = 0; j < n; ++j) {
      // Forward differences in z; the step scales with |z| so that it stays meaningful far out on the logit.
      const double h = 1e-7 * std::max(1.0, std::abs(z[j]));
      Eigen::VectorXd zh = z;
      zh[j] += h;
      residuals(bounded(zh, bounds), shifted);
      jacobian.col(j) = (shifted - r) / h;
    }
    const Eigen::MatrixXd jtj = jacobian.transpose() * jacobian;
    const Eigen::VectorXd gradient = jacobian.transpose() * r;
    if (gradient.lpNorm<Eigen::Infinity>() < 1e-14) {
      result.converged = true;
      break;
    }
    bool improved = false;
    while (lambda < 1e12) {
      Eigen::MatrixXd damped = jtj;
      for (Eigen::Index j = 0; j < n; ++j) damped(j, j) += lambda * std::max(jtj(j, j), 1e-12);
      const Eigen::VectorXd step = damped.ldlt().solve(-gradient);
      const Eigen::VectorXd trial = z + step;
      residuals(bounded(trial, bounds), trial_r);
      const double trial_cost = trial_r.squaredNorm();
      if (std::isfinite(trial_cost) && trial_cost < cost) {
        const double reduction = cost - trial_cost;
        z = trial;
        r = trial_r;
        cost = trial_cost;
        lambda = std::max(lambda / 3.0, 1e-12);
        improved = true;
        if (reduction <= 1e-12 * std::max(cost, 1e-300) || step.lpNorm<Eigen::Infinity>() < 1e-12) {
          result.converged = true;
        }
        break;
      }
      lambda *= 4.0;
    }
    if (!improved) {
      result.converged = true;  // no descent direction left at any damping: a (local) minimum
      break;
    }
    if (result.converged) break;
  }
  result.parameters = bounded(z, bounds);
  result.value = cost;
  return result;
}

OptimizerResult nelder_mead(const ObjectiveFunction& objective, const Eigen::VectorXd& start,
                            const std::vector<ParameterBounds>& bounds, int max_iterations) {
  const Eigen::Index n = start.size();
  const std::size_t vertices = static_cast<std::size_t>(n) + 1;
  std::vector<Eigen::VectorXd> simplex(vertices, unbounded(start, bounds));
  for (Eigen::Index j = 0; j < n; ++j) simplex[static_cast<std::size_t>(j) + 1][j] += 0.5;
  auto f = [&](const Eigen::VectorXd& z) {
    const double v = objective(bounded(z, bounds));
    return std::isnan(v) ? INFINITY : v;
  };
  std::vector<double> values(vertices);
  for (std::size_t i = 0; i < vertices; ++i) values[i] = f(simplex[i]);
  std::vector<std::size_t> order(vertices);
  OptimizerResult result;
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    result.iterations = iteration + 1;
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    const std::size_t best = order.front(), worst = order.back(), second = order[vertices - 2];
    if (std::isfinite(values[worst]) &&
        std::abs(values[worst] - values[best]) <= 1e-11 * (1.0 + std::abs(values[best]))) {
      result.converged = true;
      break;
    }
    Eigen::VectorXd centroid = Eigen::VectorXd::Zero(n);
    for (std::size_t i = 0; i < vertices; ++i) {
      if (i != worst) centroid += simplex[i];
    }
    centroid /= static_cast<double>(n);
    const Eigen::VectorXd reflected = centroid + (centroid - simplex[worst]);
    const double fr = f(reflected);
    if (fr < values[best]) {
      const Eigen::VectorXd expanded = centroid + 2.0 * (centroid - simplex[worst]);
      const double fe = f(expanded);
      if (fe < fr)
        simplex[worst] = expanded, values[worst] = fe;
      else
        simplex[worst] = reflected, values[worst] = fr;
    } else if (fr < values[second]) {
      simplex[worst] = reflected, values[worst] = fr;
    } else {
      const bool outside = fr < values[worst];
      const Eigen::VectorXd contracted = outside ? Eigen::VectorXd(centroid + 0.5 * (reflected - centroid))
                                                 : Eigen::VectorXd(centroid + 0.5 * (simplex[worst] - centroid));
      const double fc = f(contracted);
      if (fc < (outside ? fr : values[worst])) {
        simplex[worst] = contracted, values[worst] = fc;
      } else {
        for (std::size_t i = 0; i < vertices; ++i) {  // shrink towards the best vertex
          if (i == best) continue;
          simplex[i] = simplex[best] + 0.5 * (simplex[i] - simplex[best]);
          values[i] = f(simplex[i]);
        }
      }
    }
  }
  const auto best = static_cast<std::size_t>(std::min_element(values.begin(), values.end()) - values.begin());
  result.parameters = bounded(simplex[best], bounds);
  result.value = values[best];
  return result;
}

}  // namespace spotsim

#include "policies/checkpoint_schedule_dp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/market/lifetime_distribution.hpp"

namespace spotsim {

namespace {
// The longest lifetime worth modelling: where the job's survival falls below 1e-9 (the bathtub's end of life
// comes first).
double horizon_hours(const LifetimeDistribution& lifetime, int nodes) {
  double t = 1.0 / 64;
  while (t < 1e5 && std::pow(1.0 - lifetime.cdf(t), nodes) > 1e-9) t *= 1.25;
  return t;
}
}  // namespace

CheckpointScheduleDp::CheckpointScheduleDp(const CheckpointScheduleInput& in) {
  const LifetimeDistribution& lifetime = *in.lifetime;
  const double horizon_ms = horizon_hours(lifetime, in.nodes) * kMillisPerHour;
  ages_ = std::max<std::size_t>(in.age_points, 8);
  step_ = std::max<Millis>(1000, static_cast<Millis>(std::ceil(horizon_ms / static_cast<double>(ages_))));
  const auto h = static_cast<double>(step_);
  s_.resize(ages_ + 1);
  for (std::size_t k = 0; k <= ages_; ++k) {
    s_[k] = std::pow(1.0 - lifetime.cdf(to_hours(static_cast<Millis>(k) * step_)), in.nodes);
  }
  is_.assign(ages_ + 1, 0.0);
  for (std::size_t k = 1; k <= ages_; ++k) is_[k] = is_[k - 1] + 0.5 * h * (s_[k - 1] + s_[k]);

  rows_ =
      static_cast<std::size_t>(std::clamp<Millis>((in.work + step_ - 1) / step_, 1, static_cast<Millis>(2 * ages_)));
  const auto delta = static_cast<double>(in.checkpoint_write);
  const auto restart = static_cast<double>(in.restart);
  const std::size_t width = ages_ + 1;
  std::vector<double> e(rows_ * width);  // E(j, k)
  best_.assign(rows_ * width, 1);
  fresh_.assign(rows_, 0.0);

  // Expected time to failure inside [a, a + w] given a failure there, and the survival chance.
  const auto window = [&](double a, double w, double& p, double& lost) {
    const double sa = survival(a), sb = survival(a + w);
    if (sa <= 0.0) {
      p = 0.0;
      lost = 0.0;
      return;
    }
    p = sb / sa;
    const double dying = sa - sb;
    lost = dying > 0.0 ? (survival_integral(a + w) - survival_integral(a) - w * sb) / dying : 0.0;
  };
  // E at (row j, fractional age) by linear interpolation between grid ages; beyond the grid the VM is dead.
  const auto e_at = [&](std::size_t j, double age, double fresh_j) {
    const double x = age / h;
    if (x >= static_cast<double>(ages_)) return fresh_j;
    const auto k = static_cast<std::size_t>(x);
    const double f = x - static_cast<double>(k);
    return (1.0 - f) * e[(j - 1) * width + k] + f * e[(j - 1) * width + k + 1];
  };

  // Survival chance and expected loss of every (age, segment) pair do not depend on the remaining work:
  // tabulate them once, for segments that end with a checkpoint (w = m h + delta) and without (w = m h).
  const std::size_t max_m = ages_;
  struct Segment {
    double p, lost, next_age;
  };
  std::vector<Segment> with_write((ages_ + 1) * max_m), finishing((ages_ + 1) * max_m);
  for (std::size_t k = 0; k <= ages_; ++k) {
    const double a = static_cast<double>(k) * h;
    for (std::size_t m = 1; m <= max_m; ++m) {
      for (int finishes = 0; finishes < 2; ++finishes) {
        const double w = static_cast<double>(m) * h + (finishes ? 0.0 : delta);
        double p, lost;
        window(a, w, p, lost);
        (finishes ? finishing : with_write)[k * max_m + m - 1] = Segment{p, lost, a + w};
      }
    }
  }

  for (std::size_t j = 1; j <= rows_; ++j) {
    double* row = &e[(j - 1) * width];
    std::uint16_t* choice = &best_[(j - 1) * width];
    // One sweep of the row for a guess of F(j); returns the implied F(j).
    const auto sweep = [&](double fresh_guess) {
      for (std::size_t k = 0; k <= ages_; ++k) {
        double best_value = std::numeric_limits<double>::infinity();
        std::uint16_t best_m = 1;
        const std::size_t last_m = std::min(j, max_m);
        for (std::size_t m = 1; m <= last_m; ++m) {
          const bool finishes = m == j;
          const Segment& seg = (finishes ? finishing : with_write)[k * max_m + m - 1];
          if (seg.p <= 0.0 && m > 1) break;  // longer segments only die sooner
          const double next = finishes ? 0.0 : e_at(j - m, seg.next_age, fresh_[j - m - 1]);
          const double value =
              seg.p * (seg.next_age - static_cast<double>(k) * h + next) + (1.0 - seg.p) * (seg.lost + fresh_guess);
          if (value < best_value) best_value = value, best_m = static_cast<std::uint16_t>(m);
        }
        row[k] = best_value;
        choice[k] = best_m;
      }
      double p, lost;
      window(0.0, restart, p, lost);
      return p > 0.0 ? (p * (restart + e_at(j, restart, fresh_guess)) + (1.0 - p) * lost) / p
                     : std::numeric_limits<double>::infinity();
    };
    // Secant iteration on g(x) = sweep(x) - x, started from the previous rows' trend.
    double x0 = j >= 3 ? 2.0 * fresh_[j - 2] - fresh_[j - 3] : static_cast<double>(j) * h + restart;
    double x1 = x0 * 1.01 + h;
    double g0 = sweep(x0) - x0, g1 = sweep(x1) - x1;
    for (int it = 0; it < 40 && std::abs(g1) > 1e-9 * x1; ++it) {
      const double x2 = g1 == g0 ? x1 + g1 : x1 - g1 * (x1 - x0) / (g1 - g0);
      x0 = x1, g0 = g1;
      x1 = std::max(x2, static_cast<double>(j) * h);
      g1 = sweep(x1) - x1;
    }
    fresh_[j - 1] = x1;
    sweep(x1);  // leave the row and choices consistent with the converged F(j)
  }
}

double CheckpointScheduleDp::survival(double t) const {
  const double x = t / static_cast<double>(step_);
  if (x >= static_cast<double>(ages_)) return 0.0;
  const auto k = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(k);
  return (1.0 - f) * s_[k] + f * s_[k + 1];
}

double CheckpointScheduleDp::survival_integral(double t) const {
  const double x = t / static_cast<double>(step_);
  if (x >= static_cast<double>(ages_)) return is_.back();
  const auto k = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(k);
  const double h = static_cast<double>(step_) * f;
  const double s_end = (1.0 - f) * s_[k] + f * s_[k + 1];
  return is_[k] + 0.5 * h * (s_[k] + s_end);
}

Millis CheckpointScheduleDp::next_interval(Millis remaining, Millis age) const {
  const auto j =
      static_cast<std::size_t>(std::clamp<Millis>((remaining + step_ / 2) / step_, 1, static_cast<Millis>(rows_)));
  const auto k = static_cast<std::size_t>(std::clamp<Millis>((age + step_ / 2) / step_, 0, static_cast<Millis>(ages_)));
  return static_cast<Millis>(best_[(j - 1) * (ages_ + 1) + k]) * step_;
}

}  // namespace spotsim

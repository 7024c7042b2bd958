#include "model/market/bathtub_lifetime.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "base/errors.hpp"

namespace spotsim {

namespace {
// The late term exp(z), z = (t - b)/tau2, of quantile()'s Newton step, or 0.0 where it cannot change either sum
// it enters, (1 - early) + late and early/tau1 + late/tau2 (the result is then bit for bit the same, one
// exponential cheaper: the early-life preemptions are drawn far before the late rush). A sum x + d with
// 0 <= d < x * 2^-54 rounds back to x; the test uses an upper bound of exp(z), 2^(trunc(z log2 e) + 2), and
// x * 2^-55.
double late_term(double z, double early, double tau1, double tau2) {
  if (z < -30.0 && z > -700.0) {
    const int k = static_cast<int>(z * 1.4426950408889634) + 2;  // (trunc toward zero: >= z log2 e)
    const double bound = std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);  // 2^k
    if (bound < (1.0 - early) * 0x1p-55 && bound / tau2 < (early / tau1) * 0x1p-55) return 0.0;
  }
  return std::exp(z);
}
}  // namespace

BathtubLifetime::BathtubLifetime(const BathtubParameters& p) : p_(p) {
  if (!(p.A > 0.0 && p.A <= 1.0) || !(p.tau1_hours > 0.0) || !(p.tau2_hours > 0.0) || !(p.b_hours > 0.0) ||
      !(p.cap_hours > 0.0) || !std::isfinite(p.b_hours) || !std::isfinite(p.cap_hours)) {
    throw InputError("bathtub model: expected 0 < A <= 1 and positive finite tau1, tau2, b and cap (hours)");
  }
  // The unclamped formula increases strictly (its derivative is a sum of positive terms), so the point where it
  // reaches 1 is found by bisection.
  double hi = p.cap_hours;
  if (raw_cdf(hi) > 1.0) {
    double lo = 0.0;
    if (raw_cdf(0.0) >= 1.0) throw InputError("bathtub model: F(0) >= 1; expected A*exp(-b/tau2) < 1");
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (raw_cdf(mid) >= 1.0 ? hi : lo) = mid;
    }
  }
  end_ = hi;
  cdf_at_zero_ = raw_cdf(0.0);
  cdf_at_end_ = std::min(1.0, raw_cdf(end_));
  // Tabulate the quantile function once; sampling then needs one table look-up and a few Newton steps.
  quantile_table_[0] = 0.0;
  quantile_table_[kTableSize] = end_;
  for (std::size_t i = 1; i < kTableSize; ++i) {
    const double u = cdf_at_zero_ + (cdf_at_end_ - cdf_at_zero_) * static_cast<double>(i) / kTableSize;
    quantile_table_[i] = solve_cdf(u, quantile_table_[i - 1], end_);
  }
}

double BathtubLifetime::raw_cdf(double t) const {
  return p_.A * (1.0 - std::exp(-t / p_.tau1_hours) + std::exp((t - p_.b_hours) / p_.tau2_hours));
}

double BathtubLifetime::cdf(double t) const {
  if (t < 0.0) return 0.0;
  if (t >= end_) return 1.0;
  return std::min(1.0, raw_cdf(t));
}

double BathtubLifetime::density(double t) const {
  if (t < 0.0 || t >= end_) return 0.0;
  return p_.A *
         (std::exp(-t / p_.tau1_hours) / p_.tau1_hours + std::exp((t - p_.b_hours) / p_.tau2_hours) / p_.tau2_hours);
}

double BathtubLifetime::hazard(double t) const {
  if (t >= end_) return INFINITY;
  const double survival = 1.0 - cdf(t);
  return survival > 0.0 ? density(t) / survival : INFINITY;
}

// E[T] = integral_0^end (1 - F(t)) dt with the unclamped F below end:
//   (1 - A) end + A tau1 (1 - e^(-end/tau1)) - A tau2 (e^((end-b)/tau2) - e^(-b/tau2)).
double BathtubLifetime::mean() const {
  const double A = p_.A, t1 = p_.tau1_hours, t2 = p_.tau2_hours, b = p_.b_hours;
  return (1.0 - A) * end_ + A * t1 * (-std::expm1(-end_ / t1)) -
         A * t2 * (std::exp((end_ - b) / t2) - std::exp(-b / t2));
}

double BathtubLifetime::solve_cdf(double u, double lo, double hi) const {
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = 0.5 * (lo + hi);
    (raw_cdf(mid) >= u ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

double BathtubLifetime::quantile(double u) const {
  if (u <= cdf_at_zero_) return 0.0;  // the (tiny) atom at t = 0
  if (u >= cdf_at_end_) return end_;  // the mass that dies at the cap
  const double x = (u - cdf_at_zero_) / (cdf_at_end_ - cdf_at_zero_) * kTableSize;
  const std::size_t i = std::min(static_cast<std::size_t>(x), kTableSize - 1);
  double lo = quantile_table_[i], hi = quantile_table_[i + 1];
  double t = lo + (hi - lo) * (x - static_cast<double>(i));
  // Safeguarded Newton: F is smooth and increasing, and the bracket [lo, hi] is tight, so two or three steps reach
  // full precision; a step leaving the bracket falls back to bisection.
  for (int step = 0; step < 6 && hi > lo; ++step) {
    // Both F and its density share the same two exponentials.
    const double early = std::exp(-t / p_.tau1_hours);
    const double late = late_term((t - p_.b_hours) / p_.tau2_hours, early, p_.tau1_hours, p_.tau2_hours);
    const double f = p_.A * (1.0 - early + late) - u;
    if (f == 0.0) break;
    if (f > 0.0)
      hi = t;
    else
      lo = t;
    const double next = t - f / (p_.A * (early / p_.tau1_hours + late / p_.tau2_hours));
    if (next == t) break;
    t = (next >= lo && next <= hi) ? next : 0.5 * (lo + hi);
  }
  return t;
}

double BathtubLifetime::mean_of_minimum(int n) const {
  if (n == 1) return mean();
  // E[min of n] = integral of S(t)^n, composite Simpson on [0, end] (S is smooth there).
  constexpr int kIntervals = 4000;
  const double h = end_ / kIntervals;
  double sum = 0.0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double s = std::pow(1.0 - cdf(i == kIntervals ? std::nextafter(end_, 0.0) : i * h), n);
    sum += s * ((i == 0 || i == kIntervals) ? 1.0 : (i % 2 ? 4.0 : 2.0));
  }
  return sum * h / 3.0;
}

}  // namespace spotsim

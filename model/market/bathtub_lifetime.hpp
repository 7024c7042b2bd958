#pragma once
// The bathtub lifetime model of GCP preemptible VMs (Kadupitiya, Jadhao & Sharma, "Modeling the temporally
// constrained preemptions of transient cloud VMs", HPDC'20, arXiv 1911.05160, eq. 1):
//
//   F(t) = A * (1 - exp(-t/tau1) + exp((t - b)/tau2)),  clamped to 1,  and F(t) = 1 for t >= cap (24 h).
//
// The first term is the early-life preemptions (high hazard in the first hour), the second the rush of
// preemptions just before the 24 h limit. Times are in hours.
#include <array>
#include <cstddef>

namespace spotsim {

struct BathtubParameters {
  double A = 0.0;
  double tau1_hours = 0.0;
  double tau2_hours = 0.0;
  double b_hours = 0.0;
  double cap_hours = 24.0;
};

class BathtubLifetime {
 public:
  explicit BathtubLifetime(const BathtubParameters& p);

  const BathtubParameters& parameters() const { return p_; }
  double cdf(double t) const;
  double density(double t) const;
  double hazard(double t) const;
  double mean() const;  // closed form, see bathtub_lifetime.cpp
  double quantile(double u) const;
  double mean_of_minimum(int n) const;
  // Where F reaches 1: min(cap, the root of the unclamped formula = 1). No instance lives longer.
  double end_of_life() const { return end_; }

 private:
  double raw_cdf(double t) const;
  double solve_cdf(double u, double lo, double hi) const;

  static constexpr std::size_t kTableSize = 1024;
  BathtubParameters p_;
  double end_ = 0.0;
  double cdf_at_zero_ = 0.0;
  double cdf_at_end_ = 1.0;  // F just below end_ (the clamped formula may jump to 1 at the cap)
  std::array<double, kTableSize + 1> quantile_table_{};  // t at u = F(0) + i/N * (F(end-) - F(0))
};

}  // namespace spotsim

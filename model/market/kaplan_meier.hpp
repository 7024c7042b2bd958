#pragma once
// The Kaplan-Meier product-limit estimate of a survival function from right-censored lifetimes (Kaplan & Meier,
// "Nonparametric estimation from incomplete observations", JASA 53(282), 1958):
//
//   S(t) = prod over event times t_j <= t of (1 - d_j / n_j),
//
// d_j = preemptions at t_j, n_j = instances still at risk just before t_j (censored lifetimes equal to t_j count
// as at risk, the usual convention). With no censoring S is one minus the empirical CDF.
#include <cstddef>
#include <vector>

#include "model/market/empirical_lifetime.hpp"

namespace spotsim {

struct KaplanMeierStep {
  double time = 0.0;        // a distinct event time (hours)
  std::size_t at_risk = 0;  // n_j
  std::size_t events = 0;   // d_j
  double survival = 1.0;    // S(time), after the drop
};

// Steps at the distinct event times, in increasing order. Records need not be sorted.
std::vector<KaplanMeierStep> kaplan_meier(const std::vector<LifetimeRecord>& records);

// S(t) of the step function (right-continuous; 1 before the first event).
double kaplan_meier_survival(const std::vector<KaplanMeierStep>& steps, double t);

}  // namespace spotsim

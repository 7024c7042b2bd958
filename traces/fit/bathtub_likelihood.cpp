#include "traces/fit/bathtub_likelihood.hpp"

#include <algorithm>
#include <cmath>

#include "traces/fit/bathtub_fit.hpp"
#include "traces/fit/parametric_fits.hpp"

namespace spotsim {

double bathtub_log_likelihood(const std::vector<LifetimeRecord>& records, const BathtubParameters& p) {
  if (bathtub_raw_cdf(p, longest_event(records)) > 1.0) return -INFINITY;
  double total = 0.0;
  for (const auto& r : records) {
    const double t = std::max(r.hours, kShortestLifetimeHours);
    if (r.preempted) {
      total += std::log(bathtub_formula_density(p, t));
    } else {
      const double f = bathtub_raw_cdf(p, r.hours);  // feasibility is judged at the recorded duration itself
      if (f >= 1.0) return -INFINITY;
      total += std::log(1.0 - (t == r.hours ? f : bathtub_raw_cdf(p, t)));
    }
  }
  return total;
}

BathtubLikelihood::BathtubLikelihood(const std::vector<LifetimeRecord>& records)
    : records_(records), longest_event_(longest_event(records)), distinct_(distinct_lifetimes(records)) {
  event_term_.resize(distinct_.hours.size());
  censored_term_.resize(distinct_.hours.size());
}

double BathtubLikelihood::operator()(const BathtubParameters& p) {
  if (bathtub_raw_cdf(p, longest_event_) > 1.0) return -INFINITY;
  for (std::size_t u = 0; u < distinct_.hours.size(); ++u) {
    const double h = distinct_.hours[u];
    const double t = std::max(h, kShortestLifetimeHours);
    if (distinct_.has_censored[u]) {
      const double f = bathtub_raw_cdf(p, h);
      if (f >= 1.0) return -INFINITY;
      censored_term_[u] = std::log(1.0 - (t == h ? f : bathtub_raw_cdf(p, t)));
    }
    if (distinct_.has_event[u]) event_term_[u] = std::log(bathtub_formula_density(p, t));
  }
  double total = 0.0;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    total += (records_[i].preempted ? event_term_ : censored_term_)[distinct_.of_record[i]];
  }
  return total;
}

}  // namespace spotsim

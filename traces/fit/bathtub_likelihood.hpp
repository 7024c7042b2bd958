#pragma once
// The censored log-likelihood of the bathtub model (bathtub_fit.hpp), with the feasibility rule of its likelihood
// fit: -inf when F(t) > 1 at the longest preempted lifetime (the model gives no density beyond the point where F
// reaches 1) or F(t) >= 1 at some censored lifetime.
#include <vector>

#include "model/market/bathtub_lifetime.hpp"
#include "model/market/empirical_lifetime.hpp"
#include "traces/fit/distinct_lifetimes.hpp"

namespace spotsim {

// One pass over the records, adding log f(t_i) or log S(t_i) in record order (as censored_log_likelihood does).
double bathtub_log_likelihood(const std::vector<LifetimeRecord>& records, const BathtubParameters& p);

// The same value for a search that evaluates it thousands of times over fixed records: the longest preemption and
// the distinct durations are found once (O(n log n)); each evaluation then computes the density and survival once
// per distinct duration and adds the records' terms in record order, so it returns bathtub_log_likelihood's double.
class BathtubLikelihood {
 public:
  // Keeps a reference to `records`: they must outlive this object.
  explicit BathtubLikelihood(const std::vector<LifetimeRecord>& records);

  double operator()(const BathtubParameters& p);  // not const: fills scratch tables

  double longest_event_hours() const { return longest_event_; }

 private:
  const std::vector<LifetimeRecord>& records_;
  double longest_event_ = 0.0;
  DistinctLifetimes distinct_;
  std::vector<double> event_term_;     // log f at each distinct duration some preempted record has
  std::vector<double> censored_term_;  // log S at each distinct duration some censored record has
};

}  // namespace spotsim

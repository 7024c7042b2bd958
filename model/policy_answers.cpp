#include "model/policy_answers.hpp"

#include <cmath>

namespace spotsim {

std::string interval_problem(double ms) {
  if (std::isfinite(ms) && ms > 0.0 && ms <= kMaxPolicyHorizonMs) return "";
  return "expected an interval of more than 0 and at most 1e15 ms (about 31,700 years), or never";
}

std::string review_problem(double review_at_ms, Millis now) {
  const double ahead = review_at_ms - static_cast<double>(now);
  if (std::isfinite(review_at_ms) && ahead > 0.0 && ahead <= kMaxPolicyHorizonMs) return "";
  if (std::isfinite(review_at_ms) && ahead <= 0.0) {
    return "expected a time after now (a review at or before now would ask the same question again at once), "
           "or never";
  }
  return "expected a time at most 1e15 ms (about 31,700 years) after now, or never";
}

}  // namespace spotsim

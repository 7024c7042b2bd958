#include "traces/fit/bathtub_residuals.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

BathtubResiduals::Kept& BathtubResiduals::slot_for(std::array<Kept, 2>& slots, double key1, double key2, bool& found) {
  ++clock_;
  for (Kept& k : slots) {
    if (k.last_use != 0 && k.key1 == key1 && k.key2 == key2) {
      k.last_use = clock_;
      found = true;
      return k;
    }
  }
  Kept& victim = slots[0].last_use <= slots[1].last_use ? slots[0] : slots[1];
  victim.key1 = key1;
  victim.key2 = key2;
  victim.last_use = clock_;
  found = false;
  ++computed_;
  return victim;
}

const std::vector<double>& BathtubResiduals::early(double tau1) {
  bool found = false;
  Kept& k = slot_for(early_, tau1, 0.0, found);
  if (!found) {
    k.values.resize(target_.times.size());
    for (std::size_t j = 0; j < target_.times.size(); ++j) k.values[j] = std::exp(-target_.times[j] / tau1);
  }
  return k.values;
}

const std::vector<double>& BathtubResiduals::late(double tau2, double b) {
  bool found = false;
  Kept& k = slot_for(late_, tau2, b, found);
  if (!found) {
    k.values.resize(target_.times.size());
    for (std::size_t j = 0; j < target_.times.size(); ++j) k.values[j] = std::exp((target_.times[j] - b) / tau2);
  }
  return k.values;
}

void BathtubResiduals::evaluate(const BathtubParameters& p, Eigen::VectorXd& residuals) {
  const std::vector<double>& e1 = early(p.tau1_hours);
  const std::vector<double>& e2 = late(p.tau2_hours, p.b_hours);
  const auto& times = target_.times;
  for (std::size_t j = 0; j < times.size(); ++j) {
    // Exactly bathtub_formula_cdf: 0 before the origin, else the formula clamped to [0, 1].
    const double f = times[j] < 0.0 ? 0.0 : std::clamp(p.A * (1.0 - e1[j] + e2[j]), 0.0, 1.0);
    residuals[static_cast<Eigen::Index>(j)] = f - target_.after[j];
  }
}

}  // namespace spotsim

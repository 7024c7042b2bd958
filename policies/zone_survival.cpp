#include "policies/zone_survival.hpp"

#include <algorithm>
#include <cmath>

#include "sim/market/kaplan_meier.hpp"

namespace spotsim {

double mean_residual_life_hours(const std::vector<LifetimeRecord>& records, double age_hours,
                                double tail_mean_hours) {
  double longest = 0.0;
  for (const LifetimeRecord& r : records) longest = std::max(longest, r.hours);
  const std::vector<KaplanMeierStep> steps = kaplan_meier(records);
  // S as a step function, then S(longest) x exp(-(t - longest) / tail) beyond the longest record.
  const double s_end = steps.empty() ? 1.0 : steps.back().survival;
  const auto survival = [&](double t) {
    if (t <= longest) return kaplan_meier_survival(steps, t);
    return s_end * std::exp(-(t - longest) / tail_mean_hours);
  };
  const double s_age = survival(age_hours);
  if (s_age <= 0.0) return tail_mean_hours;  // outlived every run seen, all of which ended: only the tail is left
  double area = 0.0;  // integral of S over [age, infinity)
  double from = age_hours;
  double level = s_age;
  for (const KaplanMeierStep& step : steps) {
    if (step.time <= from) continue;
    area += level * (step.time - from);
    from = step.time;
    level = step.survival;
  }
  if (longest > from) {
    area += level * (longest - from);
    from = longest;
  }
  area += survival(from) * tail_mean_hours;
  return area / s_age;
}

void ZoneSurvival::reset() {
  for (Track& t : zones_) {
    t.runs.clear();
    t.up = false;
    t.since = 0;
  }
  last_ = -1;
}

void ZoneSurvival::observe(const Observation& obs) {
  if (zones_.size() != obs.zones.size()) zones_.assign(obs.zones.size(), Track{});
  const int held = obs.purchase == Purchase::kSpot ? obs.zone : -1;
  for (std::size_t i = 0; i < zones_.size(); ++i) {
    Track& t = zones_[i];
    const bool up_now = obs.zones[i].spot_available || held == static_cast<int>(i);
    if (last_ >= 0 && t.up && !up_now) t.runs.push_back(to_hours(obs.elapsed - t.since));
    if (up_now && (last_ < 0 || !t.up)) t.since = obs.elapsed;
    t.up = up_now;
  }
  last_ = obs.elapsed;
}

Millis ZoneSurvival::age(int z, Millis elapsed) const {
  const Track& t = zones_[static_cast<std::size_t>(z)];
  return t.up ? std::max<Millis>(elapsed - t.since, 0) : 0;
}

void ZoneSurvival::records_of(int z, Millis elapsed, std::vector<LifetimeRecord>& out) const {
  const Track& t = zones_[static_cast<std::size_t>(z)];
  for (const double h : t.runs) out.push_back({h, true});
  if (t.up) out.push_back({to_hours(age(z, elapsed)), false});
}

Millis ZoneSurvival::expected_remaining(int z, Millis elapsed) const {
  const double age_hours = to_hours(age(z, elapsed));
  // The tail mean: Gamma posterior mean of an exponential up-run over every zone, the prior worth one run.
  double exposure = 0.0;
  int ended = 0;
  scratch_.clear();
  for (int k = 0; k < static_cast<int>(zones_.size()); ++k) records_of(k, elapsed, scratch_);
  for (const LifetimeRecord& r : scratch_) {
    exposure += r.hours;
    ended += r.preempted ? 1 : 0;
  }
  const double tail = (to_hours(prior_.mean_up) + exposure) / (1.0 + ended);
  const double pooled = mean_residual_life_hours(scratch_, age_hours, tail);
  const int n = ended_runs(z);
  double estimate = pooled;
  if (n > 0) {
    scratch_.clear();
    records_of(z, elapsed, scratch_);
    const double own = mean_residual_life_hours(scratch_, age_hours, tail);
    estimate = (n * own + prior_.strength * pooled) / (n + prior_.strength);
  }
  return millis_from_hours(estimate);
}

}  // namespace spotsim

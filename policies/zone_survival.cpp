#include "policies/zone_survival.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

SurvivalCurve::SurvivalCurve(const std::vector<LifetimeRecord>& records, double tail_mean_hours)
    : steps_(kaplan_meier(records)), tail_(tail_mean_hours) {
  for (const LifetimeRecord& r : records) longest_ = std::max(longest_, r.hours);
}

double SurvivalCurve::survival(double t) const {
  if (t <= longest_) return kaplan_meier_survival(steps_, t);
  const double s_end = steps_.empty() ? 1.0 : steps_.back().survival;
  return s_end * std::exp(-(t - longest_) / tail_);
}

double SurvivalCurve::mean_residual_life(double age_hours) const {
  const double s_age = survival(age_hours);
  if (s_age <= 0.0) return tail_;  // outlived every run seen, all of which ended: only the tail is left
  double area = 0.0;               // integral of S over [age, infinity)
  double from = age_hours;
  double level = s_age;
  for (const KaplanMeierStep& step : steps_) {
    if (step.time <= from) continue;
    area += level * (step.time - from);
    from = step.time;
    level = step.survival;
  }
  if (longest_ > from) {
    area += level * (longest_ - from);
    from = longest_;
  }
  area += survival(from) * tail_;
  return area / s_age;
}

void ZoneSurvival::reset() {
  for (Track& t : zones_) {
    t.runs.clear();
    t.downs.clear();
    t.up = false;
    t.since = 0;
  }
  last_ = -1;
  pooled_at_ = -1;
}

void ZoneSurvival::observe(const Observation& obs) {
  if (zones_.size() != obs.zones.size()) zones_.assign(obs.zones.size(), Track{});
  const int held = obs.purchase == Purchase::kSpot ? obs.zone : -1;
  for (std::size_t i = 0; i < zones_.size(); ++i) {
    Track& t = zones_[i];
    const bool up_now = obs.zones[i].spot_available || held == static_cast<int>(i);
    if (last_ >= 0 && t.up && !up_now) t.runs.push_back(to_hours(obs.elapsed - t.since));
    if (last_ >= 0 && !t.up && up_now) t.downs.push_back(to_hours(obs.elapsed - t.since));
    if (last_ < 0 || t.up != up_now) t.since = obs.elapsed;
    t.up = up_now;
  }
  last_ = obs.elapsed;
  pooled_at_ = -1;
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

void ZoneSurvival::prepare_pooled(Millis elapsed) const {
  if (pooled_at_ == elapsed) return;
  // The tail mean: Gamma posterior mean of an exponential up-run over every zone, the prior worth one run.
  double exposure = 0.0;
  int ended = 0;
  scratch_.clear();
  for (int k = 0; k < static_cast<int>(zones_.size()); ++k) records_of(k, elapsed, scratch_);
  for (const LifetimeRecord& r : scratch_) {
    exposure += r.hours;
    ended += r.preempted ? 1 : 0;
  }
  tail_ = (to_hours(prior_.mean_up) + exposure) / (1.0 + ended);
  pooled_ = SurvivalCurve(scratch_, tail_);
  pooled_at_ = elapsed;
}

Millis ZoneSurvival::expected_down_remaining(int z, Millis elapsed) const {
  const Track& t = zones_[static_cast<std::size_t>(z)];
  if (t.up) return 0;
  const double age_hours = to_hours(std::max<Millis>(elapsed - t.since, 0));
  std::vector<LifetimeRecord> records;
  double exposure = age_hours;
  for (const double h : t.downs) {
    records.push_back({h, true});
    exposure += h;
  }
  records.push_back({age_hours, false});
  const double tail = (to_hours(prior_.mean_down) + exposure) / (1.0 + static_cast<double>(t.downs.size()));
  return millis_from_hours(SurvivalCurve(records, tail).mean_residual_life(age_hours));
}

Millis ZoneSurvival::expected_remaining(int z, Millis elapsed) const {
  prepare_pooled(elapsed);
  const double age_hours = to_hours(age(z, elapsed));
  const double pooled = pooled_.mean_residual_life(age_hours);
  const int n = ended_runs(z);
  double estimate = pooled;
  if (n > 0) {
    scratch_.clear();
    records_of(z, elapsed, scratch_);
    const double own = SurvivalCurve(scratch_, tail_).mean_residual_life(age_hours);
    estimate = (n * own + prior_.strength * pooled) / (n + prior_.strength);
  }
  return millis_from_hours(estimate);
}

}  // namespace spotsim

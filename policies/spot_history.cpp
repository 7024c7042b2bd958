#include "policies/spot_history.hpp"

#include <algorithm>

namespace spotsim {

double SpotPrior::mean_down() const {
  const double a = std::clamp(availability, 0.01, 0.99);
  return static_cast<double>(mean_up) * (1.0 - a) / a;
}

void SpotHistory::reset() {
  std::fill(zones_.begin(), zones_.end(), ZoneRecord{});
  last_ = -1;
  held_spot_zone_ = -1;
}

void SpotHistory::observe(const Observation& obs) {
  if (zones_.size() != obs.zones.size()) zones_.assign(obs.zones.size(), ZoneRecord{});
  const int held = obs.purchase == Purchase::kSpot ? obs.zone : -1;
  const Millis dt = last_ < 0 ? 0 : std::max<Millis>(obs.elapsed - last_, 0);
  for (std::size_t i = 0; i < zones_.size(); ++i) {
    ZoneRecord& r = zones_[i];
    const int z = static_cast<int>(i);
    const bool up_now = obs.zones[i].spot_available || held == z;
    if (last_ >= 0) {
      const bool was_up = r.was_up || held_spot_zone_ == z;
      (was_up ? r.up : r.down) += dt;
      if (was_up && !up_now) ++r.drops;
      if (!was_up && up_now) ++r.returns;
      if (was_up != up_now) r.since = obs.elapsed;
    } else {
      r.since = obs.elapsed;
    }
    r.was_up = up_now;
  }
  last_ = obs.elapsed;
  held_spot_zone_ = held;
}

double SpotHistory::availability(int z, const SpotPrior& prior) const {
  const ZoneRecord& r = zone(z);
  const auto w = static_cast<double>(prior.weight);
  const double seen = static_cast<double>(r.up) + static_cast<double>(r.down);
  if (w + seen <= 0.0) return std::clamp(prior.availability, 0.01, 1.0);
  return std::clamp((prior.availability * w + static_cast<double>(r.up)) / (w + seen), 0.01, 1.0);
}

double SpotHistory::mean_up(int z, const SpotPrior& prior) const {
  const ZoneRecord& r = zone(z);
  return (static_cast<double>(prior.mean_up) + static_cast<double>(r.up)) / (1.0 + r.drops);
}

double SpotHistory::mean_down(int z, const SpotPrior& prior) const {
  const ZoneRecord& r = zone(z);
  return (prior.mean_down() + static_cast<double>(r.down)) / (1.0 + r.returns);
}

}  // namespace spotsim

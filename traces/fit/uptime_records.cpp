#include "traces/fit/uptime_records.hpp"

namespace spotsim {

std::vector<LifetimeRecord> uptime_records(const Zone& zone, Millis span, int nodes) {
  std::vector<LifetimeRecord> out;
  const SpotOffer& spot = zone.spot;
  if (spot.available && !spot.available->is_constant()) {
    const auto& times = spot.available->times();
    const auto& values = spot.available->values();
    const Millis end = spot.available->span();
    Millis up_since = -1;
    for (std::size_t i = 0; i < times.size(); ++i) {
      const bool up = values[i] >= nodes;
      if (up && up_since < 0) up_since = times[i];
      if (!up && up_since >= 0) {
        out.push_back({to_hours(times[i] - up_since), true});
        up_since = -1;
      }
    }
    if (up_since >= 0) out.push_back({to_hours(end - up_since), false});
  } else if (!spot.preemption_times.empty() && span != kNever) {
    Millis previous = 0;
    for (Millis t : spot.preemption_times) {
      if (t > previous) out.push_back({to_hours(t - previous), true});
      previous = t;
    }
    if (span > previous) out.push_back({to_hours(span - previous), false});
  } else if (spot.lifetime) {
    if (const auto* empirical = std::get_if<EmpiricalLifetime>(&spot.lifetime->model())) out = empirical->records();
  }
  return out;
}

}  // namespace spotsim

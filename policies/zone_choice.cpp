#include "policies/zone_choice.hpp"

#include <algorithm>
#include <tuple>

#include "policies/deadline_math.hpp"

namespace spotsim {

int cheapest_obtainable_spot_zone(const Observation& obs) {
  int best = -1;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    if (!v.spot_available) continue;
    if (best < 0 || v.spot_price_per_hour < obs.zones[static_cast<std::size_t>(best)].spot_price_per_hour) best = z;
  }
  return best;
}

int cheapest_on_demand_zone(const Observation& obs) {
  int best = 0;
  for (int z = 1; z < static_cast<int>(obs.zones.size()); ++z) {
    if (obs.zones[static_cast<std::size_t>(z)].on_demand_price_per_hour <
        obs.zones[static_cast<std::size_t>(best)].on_demand_price_per_hour) {
      best = z;
    }
  }
  return best;
}

double cheapest_spot_price(const Observation& obs) {
  double best = 0.0;
  for (std::size_t z = 0; z < obs.zones.size(); ++z) {
    const double p = obs.zones[z].spot_price_per_hour;
    if (z == 0 || p < best) best = p;
  }
  return best;
}

int state_zone_on_leaving(const Observation& obs) {
  // The engine saves unsaved work (or finishes the write under way) before it moves a job off an instance, so
  // the state then lies where the job runs now (engine/job_simulation.cpp, switch_to).
  const bool holds = obs.purchase != Purchase::kNone && obs.zone >= 0;
  const bool saves_first =
      obs.can_checkpoint && !obs.lossless &&
      (obs.phase == Phase::kCheckpointing || (obs.phase == Phase::kComputing && obs.progress > obs.committed));
  return holds && saves_first ? obs.zone : obs.data_zone;
}

int state_region(const Observation& obs) {
  const int zone = state_zone_on_leaving(obs);
  if (zone < 0 || zone >= static_cast<int>(obs.zones.size())) return -1;
  return obs.zones[static_cast<std::size_t>(zone)].region;
}

bool in_state_region(const Observation& obs, int z) {
  const int region = state_region(obs);
  return region < 0 || obs.zones[static_cast<std::size_t>(z)].region == region;
}

int cheapest_on_demand_zone_in_state_region(const Observation& obs) {
  int best = -1;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    if (!in_state_region(obs, z)) continue;
    if (best < 0 || obs.zones[static_cast<std::size_t>(z)].on_demand_price_per_hour <
                        obs.zones[static_cast<std::size_t>(best)].on_demand_price_per_hour) {
      best = z;
    }
  }
  return best < 0 ? cheapest_on_demand_zone(obs) : best;
}

int on_demand_zone_choice(const Observation& obs) {
  if (obs.purchase == Purchase::kOnDemand) return obs.zone;
  // The views' transfer times are from Observation::data_zone: they are the move's only when the state stays
  // there as the job leaves (nothing saved first elsewhere).
  const bool views_price_the_move = state_zone_on_leaving(obs) == obs.data_zone;
  int best = -1;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    if (!in_state_region(obs, z) && (!views_price_the_move || !transfer_fits(obs, z))) continue;
    if (best < 0 || obs.zones[static_cast<std::size_t>(z)].on_demand_price_per_hour <
                        obs.zones[static_cast<std::size_t>(best)].on_demand_price_per_hour) {
      best = z;
    }
  }
  return best < 0 ? cheapest_on_demand_zone_in_state_region(obs) : best;
}

bool transfer_fits(const Observation& obs, int z) {
  const Millis transfer = obs.zones[static_cast<std::size_t>(z)].migration_time;
  if (transfer <= 0 || !obs.has_deadline()) return true;
  return spare_off_spot(obs) - transfer > 0;
}

double effective_spot_price(const Observation& obs, int z) {
  const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
  const double work_hours = std::max(to_hours(obs.remaining_work()), 1.0 / 60.0);
  return v.spot_price_per_hour + (v.spot_price_per_hour * to_hours(v.migration_time) + v.migration_cost) / work_hours;
}

int spot_zone_state_region_first(const Observation& obs) {
  int best = -1;
  auto key = [&](int z) { return std::make_tuple(!in_state_region(obs, z), effective_spot_price(obs, z), z); };
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    if (!obs.zones[static_cast<std::size_t>(z)].spot_available || !transfer_fits(obs, z)) continue;
    if (best < 0 || key(z) < key(best)) best = z;
  }
  return best;
}

}  // namespace spotsim

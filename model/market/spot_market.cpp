#include "model/market/spot_market.hpp"

#include <algorithm>
#include <cmath>

#include "model/market/node_reclaim.hpp"

namespace spotsim {

std::optional<double> MigrationModel::egress_usd_per_gb(const std::string& from, const std::string& to) const {
  if (from == to) return 0.0;
  for (const EgressPrice& price : egress) {
    if (price.from == from && price.to == to) return price.usd_per_gb;
  }
  return std::nullopt;
}

std::vector<std::string> market_regions(const SpotMarket& market) {
  std::vector<std::string> regions;
  for (const Zone& zone : market.zones) {
    if (std::find(regions.begin(), regions.end(), zone.region) == regions.end()) regions.push_back(zone.region);
  }
  return regions;
}

Millis spot_mean_time_between_preemptions(const Zone& zone, int nodes) {
  const SpotOffer& spot = zone.spot;
  double rate_per_hour = 0.0;  // preemption processes are combined by adding their rates
  if (spot.lifetime) rate_per_hour += 1.0 / spot.lifetime->mean_of_minimum(nodes);
  if (spot.available && !spot.available->is_constant()) {
    const StepSeries& a = *spot.available;
    const auto enough = [nodes](double v) { return v >= nodes; };
    const double up_hours = to_hours(a.span()) * a.fraction_where(enough);
    // Every drop of the pool while the job can hold its nodes reclaims one of them with the probability of
    // model/market/node_reclaim.hpp (1 for a drop below `nodes`, so a job holding the whole pool counts those drops).
    double drops = 0.0;
    const auto& v = a.values();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double next = v[(i + 1) % v.size()];
      if (enough(v[i]) && next < v[i]) {
        drops += reclaim_probability(static_cast<int>(std::floor(std::min(v[i], 2e9))),
                                     static_cast<int>(std::floor(std::max(next, 0.0))), nodes);
      }
    }
    if (drops > 0.0 && up_hours > 0.0) rate_per_hour += drops / up_hours;
  }
  if (!spot.preemption_times.empty() && spot.preemption_period != kNever) {
    rate_per_hour += static_cast<double>(spot.preemption_times.size()) / to_hours(spot.preemption_period);
  }
  if (rate_per_hour <= 0.0) return kNever;
  return millis_from_hours(1.0 / rate_per_hour);
}

}  // namespace spotsim

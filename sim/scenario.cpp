#include "sim/scenario.hpp"

#include <algorithm>

#include "sim/errors.hpp"
#include "sim/random_streams.hpp"

namespace spotsim {

Millis random_trace_start(const SpotMarket& market, std::uint64_t seed, std::uint64_t replication) {
  // One draw per replication: computed without building the stream's engine (bit-identical, see the header).
  const double u = first_uniform01(seed, replication, StreamPurpose::kTraceWindow, 0);
  if (market.tick > 0) {
    const Millis ticks = market.span / market.tick;
    return std::min<Millis>(static_cast<Millis>(u * static_cast<double>(ticks)), ticks - 1) * market.tick;
  }
  return static_cast<Millis>(u * static_cast<double>(market.span));
}

void Scenario::view_zones(Millis t, std::vector<ZoneView>& views) const {
  const int nodes = job_.nodes;
  for (std::size_t z = 0; z < views.size(); ++z) {
    const Zone& zone = market_->zones[z];
    ZoneView& view = views[z];
    view.spot_available = !zone.spot.available || zone.spot.available->at(t) >= nodes;
    view.spot_price_per_hour = zone.spot.price_per_hour.at(t);
    view.on_demand_price_per_hour = zone.on_demand_price_per_hour;
    view.spot_mtbf = spot_mtbf_[z];
    view.spot_availability = spot_availability_[z];
    view.notice = zone.spot.notice;
    view.lifetime = zone.spot.lifetime ? &*zone.spot.lifetime : nullptr;
  }
}

Scenario::Scenario(const SpotMarket& market, const JobSpec& job, TraceStart start)
    : market_(&market), job_(job), start_(start) {
  if (market.zones.empty()) throw InputError("trace '" + market.name + "': expected at least one zone");
  validate_job(job_, "job");
  const int nodes = job_.nodes;
  for (const Zone& zone : market.zones) {
    spot_mtbf_.push_back(spot_mean_time_between_preemptions(zone, nodes));
    const auto& available = zone.spot.available;
    spot_availability_.push_back(available ? available->fraction_where([nodes](double v) { return v >= nodes; }) : 1.0);
  }
}

}  // namespace spotsim

#include "sim/scenario.hpp"

#include "sim/errors.hpp"

namespace spotsim {

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

#include "sim/scenario.hpp"

#include <algorithm>

#include "sim/errors.hpp"
#include "sim/random_streams.hpp"

namespace spotsim {

Millis random_trace_start(const SpotMarket& market, std::uint64_t seed, std::uint64_t replication) {
  RandomStream window(seed, replication, StreamPurpose::kTraceWindow, 0);
  const double u = window.uniform01();
  if (market.tick > 0) {
    const Millis ticks = market.span / market.tick;
    return std::min<Millis>(static_cast<Millis>(u * static_cast<double>(ticks)), ticks - 1) * market.tick;
  }
  return static_cast<Millis>(u * static_cast<double>(market.span));
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

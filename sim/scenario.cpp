#include "sim/scenario.hpp"

#include "sim/errors.hpp"

namespace spotsim {

Scenario::Scenario(const SpotMarket& market, const JobSpec& job, TraceStart start)
    : market_(&market), job_(job), start_(start) {
  if (market.zones.empty()) throw InputError("trace '" + market.name + "': expected at least one zone");
  validate_job(job_, "job");
  for (const Zone& zone : market.zones) spot_mtbf_.push_back(spot_mean_time_between_preemptions(zone, job_.nodes));
}

}  // namespace spotsim

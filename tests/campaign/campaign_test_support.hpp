#pragma once
// Markets, jobs and policies for the campaign tests.
#include <string>
#include <vector>

#include "policies/policy_registry.hpp"
#include "model/campaign_spec.hpp"
#include "model/market/spot_market.hpp"
#include "engine/replication_runner.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim::testing {

inline SpotMarket shipped_trace(const std::string& name) {
  return read_trace_file(std::string(SPOTSIM_REPO_DIR) + "/traces/library/" + name);
}

inline PolicyFactories factories(const std::string& selection, const std::string& checkpoint) {
  static const PolicyRegistry registry = builtin_policy_registry();
  return PolicyFactories{registry.selection_factory(selection), registry.checkpoint_factory(checkpoint)};
}

// One zone whose spot count follows `counts` (one value per hour, repeating), spot $1/h, on-demand $3/h.
inline SpotMarket counted_market(const std::vector<double>& counts, Millis notice = 30 * kMillisPerSecond) {
  SpotMarket market;
  market.name = "test";
  Zone zone;
  zone.name = "z";
  zone.on_demand_price_per_hour = 3.0;
  zone.spot.price_per_hour = StepSeries::constant(1.0);
  std::vector<Millis> times;
  for (std::size_t i = 0; i < counts.size(); ++i) times.push_back(static_cast<Millis>(i) * kMillisPerHour);
  zone.spot.available = StepSeries(times, counts, static_cast<Millis>(counts.size()) * kMillisPerHour);
  zone.spot.notice = notice;
  market.zones.push_back(zone);
  market.span = static_cast<Millis>(counts.size()) * kMillisPerHour;
  market.tick = kMillisPerHour;
  return market;
}

inline CampaignJob campaign_job(double work_hours, double arrival_hours = 0.0, int nodes = 1) {
  CampaignJob job;
  job.job.work = millis_from_hours(work_hours);
  job.job.nodes = nodes;
  job.arrival = millis_from_hours(arrival_hours);
  return job;
}

}  // namespace spotsim::testing

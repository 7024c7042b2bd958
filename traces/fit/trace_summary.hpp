#pragma once
// The numbers `spotsim trace inspect` prints for each zone of a market: how often spot is there, how often it is
// taken away, how long it lasts, and what it costs.
#include <string>
#include <vector>

#include "model/market/spot_market.hpp"

namespace spotsim {

struct ZoneSummary {
  std::string name;
  std::string instance_type;
  std::string preemption_source;       // availability | recorded preemptions | lifetime model <name> | none
  double availability_fraction = 1.0;  // share of the recording with at least `nodes` instances obtainable
  // Preemptions per instance-hour: instances lost (drops of the count) / instance-hours available; recorded
  // preemptions / recorded hours (one instance); 1 / mean lifetime for a model. 0 if never preempted.
  double preemptions_per_instance_hour = 0.0;
  std::size_t uptimes = 0;           // uptime intervals seen (recordings) or records (empirical model); 0 for a model
  double mean_uptime_hours = 0.0;    // recordings: mean of the intervals, censored ones as observed; models: E[T]
  double median_uptime_hours = 0.0;  // likewise, the median
  double on_demand_price_per_hour = 0.0;
  double spot_price_min = 0.0;
  double spot_price_max = 0.0;
  double spot_price_mean = 0.0;  // time-weighted over the recording
};

struct TraceSummary {
  std::string name;
  double span_hours = 0.0;  // 0 when the trace has no recording (lifetime models only)
  int nodes = 1;
  std::vector<ZoneSummary> zones;
};

TraceSummary summarize_trace(const SpotMarket& market, int nodes);

}  // namespace spotsim

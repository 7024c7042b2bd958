#pragma once
// The in-memory market every trace source is turned into: zones, each with an always-available on-demand offer
// and a spot offer whose availability, price and preemptions come from a recording, a lifetime model, or both.
// This is the one form the engine consumes; readers and importers produce it, writers serialise it.
#include <optional>
#include <string>
#include <vector>

#include "base/time.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "model/market/step_series.hpp"

namespace spotsim {

struct SpotOffer {
  StepSeries price_per_hour;                     // USD per instance-hour
  std::optional<StepSeries> available;           // instances obtainable over time; nullopt = always available
  std::vector<Millis> preemption_times;          // recorded preemptions (sorted, within one trace period)
  Millis preemption_period = kNever;             // period with which preemption_times repeat (the trace span)
  std::optional<LifetimeDistribution> lifetime;  // synthetic preemptions by instance age
  Millis notice = 30 * kMillisPerSecond;         // warning before a preemption (GCP 30 s, AWS 120 s)
  // Multi-node jobs: the chance that all of a launch's nodes share one lifetime (a zone-wide reclaim) instead of
  // independent ones. Each node's lifetime keeps the model's distribution either way.
  double node_correlation = 0.0;
};

struct Zone {
  std::string name;
  // Where the zone is, for migration (transfer tier and egress price). A v1 trace has one region for all zones:
  // both stay "" and moving between its zones costs nothing beyond the restore.
  std::string region;     // e.g. "us-central1"
  std::string continent;  // e.g. "us", "europe", "asia"
  std::string instance_type;
  std::string gpu;
  int gpus_per_instance = 1;
  double on_demand_price_per_hour = 0.0;  // USD per instance-hour
  SpotOffer spot;
};

struct Billing {
  Millis minimum = kMillisPerMinute;    // GCP and AWS both bill at least one minute...
  Millis increment = kMillisPerSecond;  // ...then per second
};

// USD per GB moved from one region to another (the source region's price list).
struct EgressPrice {
  std::string from;
  std::string to;
  double usd_per_gb = 0.0;
};

// Moving a job's checkpoint to a zone of another region (docs/migration.md). Within a region the transfer is part
// of the restore and free; to another region it takes size / bandwidth of the tier and costs size x egress price.
// Defaults: S3 checkpoint transfers measured by the SkyNomad authors (NSDI'27): 8.20 Gbit/s to another region of the
// same continent, 3.59 Gbit/s across continents.
struct MigrationModel {
  double same_continent_gbps = 8.20;
  double cross_continent_gbps = 3.59;
  std::vector<EgressPrice> egress;  // every ordered pair of the trace's distinct regions (checked by the reader)

  // nullopt when the pair is not in the table (same region: 0).
  std::optional<double> egress_usd_per_gb(const std::string& from, const std::string& to) const;
};

struct Provenance {
  std::string source;
  std::string date;
  std::string license;
  std::string notes;
};

struct SpotMarket {
  std::string name;
  std::string description;
  Provenance provenance;
  Billing billing;
  std::vector<Zone> zones;
  MigrationModel migration;
  // Length of the recording, if the trace has one: replications may start anywhere within it.
  Millis span = kNever;
  // The clock a recording was sampled on (availability and prices change only at multiples of it); 0 = none.
  // Replications then start on a tick, and the Can't Be Late mode and the offline optimum decide per tick.
  Millis tick = 0;
};

// The distinct regions of the market's zones, in order of first appearance.
std::vector<std::string> market_regions(const SpotMarket& market);

// The expected time between preemptions of a job holding `nodes` spot instances in `zone`: from the lifetime
// model (mean of the minimum of the nodes' lifetimes), else from the recording (available time per drop).
// kNever if the zone is never preempted.
Millis spot_mean_time_between_preemptions(const Zone& zone, int nodes);

}  // namespace spotsim

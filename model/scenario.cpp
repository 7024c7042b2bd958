#include "model/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "base/errors.hpp"
#include "model/random_streams.hpp"

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

void Scenario::view_zones(Millis t, int data_zone, std::vector<ZoneView>& views) const {
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
    view.region = zone_region_[z];
    const MigrationCost& move = migration(data_zone, static_cast<int>(z));
    view.migration_time = move.transfer;
    view.migration_cost = move.egress_usd;
  }
}

Scenario::Scenario(const SpotMarket& market, const JobSpec& job, TraceStart start)
    : market_(&market), job_(job), start_(start) {
  if (market.zones.empty()) throw InputError("trace '" + market.name + "': expected at least one zone");
  job_ = resolve_job_instances(job, market, "job");  // a job given in GPUs needs this trace's instance count
  validate_job(job_, "job");
  const int nodes = job_.nodes;
  for (const Zone& zone : market.zones) {
    spot_mtbf_.push_back(spot_mean_time_between_preemptions(zone, nodes));
    const auto& available = zone.spot.available;
    spot_availability_.push_back(available ? available->fraction_where([nodes](double v) { return v >= nodes; }) : 1.0);
  }
  build_migration_costs();
}

void Scenario::build_migration_costs() {
  const SpotMarket& market = *market_;
  const std::vector<std::string> regions = market_regions(market);
  region_count_ = static_cast<int>(regions.size());
  for (const Zone& zone : market.zones) {
    zone_region_.push_back(static_cast<int>(std::find(regions.begin(), regions.end(), zone.region) - regions.begin()));
  }
  const double same_continent =
      job_.same_continent_gbps > 0 ? job_.same_continent_gbps : market.migration.same_continent_gbps;
  const double cross_continent =
      job_.cross_continent_gbps > 0 ? job_.cross_continent_gbps : market.migration.cross_continent_gbps;
  const double gigabytes = job_.checkpoint_size_gb;
  // The distinct (region, continent) places, each with the first zone that stands for it.
  std::map<std::pair<std::string, std::string>, std::size_t> place_of;
  std::vector<std::size_t> place_zone;
  for (std::size_t z = 0; z < market.zones.size(); ++z) {
    const Zone& zone = market.zones[z];
    const auto [it, added] = place_of.emplace(std::make_pair(zone.region, zone.continent), place_zone.size());
    if (added) place_zone.push_back(z);
    zone_place_.push_back(it->second);
  }
  place_count_ = place_zone.size();
  migration_.assign(place_count_ * place_count_, MigrationCost{});
  for (std::size_t from = 0; from < place_count_; ++from) {
    for (std::size_t to = 0; to < place_count_; ++to) {
      const Zone& a = market.zones[place_zone[from]];
      const Zone& b = market.zones[place_zone[to]];
      if (a.region == b.region || gigabytes <= 0.0) continue;
      const double gbps = a.continent == b.continent ? same_continent : cross_continent;
      if (!(gbps > 0.0)) {
        throw InputError("trace '" + market.name + "': migration bandwidth from " + a.region + " to " + b.region +
                         ": expected a positive number of Gbit/s");
      }
      const auto price = market.migration.egress_usd_per_gb(a.region, b.region);
      if (!price) {
        throw InputError("trace '" + market.name + "': migration.egress: no price for moving data from region '" +
                         a.region + "' to '" + b.region + "' (a job with checkpoint_size_gb > 0 needs one for every " +
                         "pair of the trace's regions)");
      }
      MigrationCost& cost = migration_[from * place_count_ + to];
      cost.transfer = static_cast<Millis>(std::ceil(gigabytes * 8.0 / gbps * kMillisPerSecond));
      cost.egress_usd = gigabytes * *price;
      has_migration_costs_ = has_migration_costs_ || cost.transfer > 0 || cost.egress_usd > 0.0;
    }
  }
}

}  // namespace spotsim

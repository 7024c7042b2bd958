#include "traces/trace_writer.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "traces/trace_migration.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {

nlohmann::json series_to_json(const StepSeries& series, const char* values_key) {
  nlohmann::json times = nlohmann::json::array();
  for (Millis t : series.times()) times.push_back(to_seconds(t));
  return {{"times_s", times}, {values_key, series.values()}};
}

struct LifetimeJson {
  nlohmann::json operator()(const ExponentialLifetime& m) const {
    return {{"model", "exponential"}, {"mean_hours", m.mean_hours}};
  }
  nlohmann::json operator()(const WeibullLifetime& m) const {
    return {{"model", "weibull"}, {"shape", m.shape}, {"scale_hours", m.scale_hours}};
  }
  nlohmann::json operator()(const BathtubLifetime& m) const {
    const auto& p = m.parameters();
    return {{"model", "bathtub"},         {"A", p.A},
            {"tau1_hours", p.tau1_hours}, {"tau2_hours", p.tau2_hours},
            {"b_hours", p.b_hours},       {"cap_hours", p.cap_hours}};
  }
  nlohmann::json operator()(const EmpiricalLifetime& m) const {
    nlohmann::json hours = nlohmann::json::array(), preempted = nlohmann::json::array();
    for (const auto& r : m.records()) {
      hours.push_back(r.hours);
      preempted.push_back(r.preempted);
    }
    return {{"model", "empirical"}, {"lifetimes_hours", hours}, {"preempted", preempted}};
  }
};

}  // namespace

nlohmann::json lifetime_to_json(const LifetimeDistribution& lifetime) {
  return std::visit(LifetimeJson{}, lifetime.model());
}

nlohmann::json trace_to_json(const SpotMarket& market) {
  nlohmann::json doc;
  doc["format"] = "spotsim-trace";
  // A market without regions (every zone in region "") is exactly a version-1 trace, and is written as one so that
  // it reads back identically; version 2 requires every zone's region.
  const bool with_regions =
      std::any_of(market.zones.begin(), market.zones.end(), [](const Zone& z) { return !z.region.empty(); });
  doc["version"] = with_regions ? kTraceFormatVersion : 1;
  doc["name"] = market.name;
  if (!market.description.empty()) doc["description"] = market.description;
  doc["provenance"] = {
      {"source", market.provenance.source}, {"date", market.provenance.date}, {"license", market.provenance.license}};
  if (!market.provenance.notes.empty()) doc["provenance"]["notes"] = market.provenance.notes;
  doc["billing"] = {{"minimum_s", to_seconds(market.billing.minimum)},
                    {"increment_s", to_seconds(market.billing.increment)}};
  if (market.span != kNever) doc["span_s"] = to_seconds(market.span);
  if (market.tick > 0) doc["tick_s"] = to_seconds(market.tick);
  nlohmann::json zones = nlohmann::json::array();
  for (const Zone& zone : market.zones) {
    nlohmann::json z;
    z["name"] = zone.name;
    if (with_regions) {
      z["region"] = zone.region;
      z["continent"] = zone.continent;
    }
    if (!zone.instance_type.empty()) z["instance_type"] = zone.instance_type;
    if (!zone.gpu.empty()) z["gpu"] = zone.gpu;
    z["gpus_per_instance"] = zone.gpus_per_instance;
    z["on_demand_price_per_hour"] = zone.on_demand_price_per_hour;
    nlohmann::json spot;
    const SpotOffer& s = zone.spot;
    if (s.price_per_hour.is_constant())
      spot["price_per_hour"] = s.price_per_hour.values().front();
    else
      spot["price_series"] = series_to_json(s.price_per_hour, "values");
    if (s.available) spot["availability"] = series_to_json(*s.available, "counts");
    if (!s.preemption_times.empty()) {
      nlohmann::json times = nlohmann::json::array();
      for (Millis t : s.preemption_times) times.push_back(to_seconds(t));
      spot["preemptions_s"] = times;
    }
    if (s.lifetime) spot["lifetime"] = lifetime_to_json(*s.lifetime);
    spot["notice_s"] = to_seconds(s.notice);
    if (s.node_correlation > 0.0) spot["node_correlation"] = s.node_correlation;
    z["spot"] = spot;
    zones.push_back(z);
  }
  doc["zones"] = zones;
  if (with_regions) doc["migration"] = migration_to_json(market.migration);
  return doc;
}

}  // namespace spotsim

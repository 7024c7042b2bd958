#pragma once
// Tiny two-zone markets and scripted policies for the migration and cost-ledger tests: every number in those
// tests follows by hand from the values here.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/market/spot_market.hpp"
#include "model/policy_interfaces.hpp"

namespace spotsim::testing {

constexpr double kSpotA = 1.0, kSpotB = 2.0, kOnDemand = 3.0;  // USD per hour
constexpr double kGbps = 8.0;                                  // same-continent tier: 1 GB moves in exactly 1 s
constexpr double kEgressPerGb = 0.02;

// Spot availability: `levels[i]` from `times[i]` on, repeating after a long span (so it never wraps in a test).
inline StepSeries availability(std::vector<Millis> times, std::vector<double> levels) {
  return StepSeries(std::move(times), std::move(levels), 10'000 * kMillisPerHour);
}

// Zone 0 ("a") in region r-a, zone 1 ("b") in `region_b`, both on one continent; recorded availability (nullopt =
// always), constant prices, no notice, exact per-millisecond billing.
inline SpotMarket two_zone_market(std::optional<StepSeries> available_a, std::optional<StepSeries> available_b,
                                  const std::string& region_b = "r-b") {
  SpotMarket market;
  market.name = "two-zones";
  market.billing = Billing{0, 1};
  market.span = 10'000 * kMillisPerHour;
  market.migration.same_continent_gbps = kGbps;
  market.migration.egress = {{"r-a", "r-b", kEgressPerGb}, {"r-b", "r-a", kEgressPerGb}};
  const auto zone = [](const char* name, const std::string& region, double spot, std::optional<StepSeries> available) {
    Zone z;
    z.name = name;
    z.region = region;
    z.continent = "us";
    z.on_demand_price_per_hour = kOnDemand;
    z.spot.price_per_hour = StepSeries::constant(spot);
    z.spot.available = std::move(available);
    z.spot.notice = 0;
    return z;
  };
  market.zones.push_back(zone("a", "r-a", kSpotA, std::move(available_a)));
  market.zones.push_back(zone("b", region_b, kSpotB, std::move(available_b)));
  return market;
}

// Spot in zone 0 while it can be had, else spot in zone 1 (waits when neither is there).
class PreferZoneA final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    return SelectionDecision::spot(obs.zones[0].spot_available ? 0 : 1);
  }
};

// Never leaves zone 0: spot there when obtainable, else on-demand there.
class ZoneAOnly final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    return obs.zones[0].spot_available ? SelectionDecision::spot(0) : SelectionDecision::on_demand(0, kNever, true);
  }
};

// A checkpoint every `interval` of compute, or continuous (lossless) checkpointing.
class FixedCheckpoints final : public CheckpointPolicy {
 public:
  explicit FixedCheckpoints(Millis interval, bool continuous = false) : interval_(interval), continuous_(continuous) {}
  Millis next_interval(const Observation&) override { return interval_; }
  bool continuous() const override { return continuous_; }

 private:
  Millis interval_;
  bool continuous_;
};

}  // namespace spotsim::testing

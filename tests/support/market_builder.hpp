#pragma once
// Markets for tests, said in the terms a test cares about instead of assembled field by field:
//
//   SpotMarket m = MarketBuilder("test").exact_billing()
//                      .zone("a", "r1").on_demand(3.0).spot_price(1.0).hourly_counts({4, 4, 1}).notice(0)
//                      .zone("b", "r2").on_demand(3.0).spot_price(0.8)
//                      .egress("r1", "r2", 0.02).build();
//
// A zone's setters apply to the zone last started with zone(); the defaults are a Zone's and a SpotMarket's own
// (spot free and always obtainable, a 30 s notice, billing per second after a minute).
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/market/spot_market.hpp"

namespace spotsim::testing {

class MarketBuilder {
 public:
  explicit MarketBuilder(std::string name = "test") { market_.name = std::move(name); }

  MarketBuilder& zone(std::string name, std::string region = "", std::string continent = "") {
    Zone z;
    z.name = std::move(name);
    z.region = std::move(region);
    z.continent = std::move(continent);
    market_.zones.push_back(std::move(z));
    return *this;
  }
  MarketBuilder& on_demand(double usd_per_hour) {
    return set([&](Zone& z) { z.on_demand_price_per_hour = usd_per_hour; });
  }
  MarketBuilder& spot_price(double usd_per_hour) {
    return set([&](Zone& z) { z.spot.price_per_hour = StepSeries::constant(usd_per_hour); });
  }
  MarketBuilder& spot_prices(StepSeries prices) {
    return set([&](Zone& z) { z.spot.price_per_hour = std::move(prices); });
  }
  MarketBuilder& available(StepSeries counts) {
    return set([&](Zone& z) { z.spot.available = std::move(counts); });
  }
  // One obtainable count per hour, repeating after the last; the market's span becomes that period.
  MarketBuilder& hourly_counts(const std::vector<double>& counts) {
    std::vector<Millis> times;
    for (std::size_t i = 0; i < counts.size(); ++i) times.push_back(static_cast<Millis>(i) * kMillisPerHour);
    const Millis period = static_cast<Millis>(counts.size()) * kMillisPerHour;
    market_.span = period;
    return available(StepSeries(times, counts, period));
  }
  MarketBuilder& lifetime(std::optional<LifetimeDistribution> lifetime) {
    return set([&](Zone& z) { z.spot.lifetime = std::move(lifetime); });
  }
  MarketBuilder& notice(Millis notice) {
    return set([&](Zone& z) { z.spot.notice = notice; });
  }
  MarketBuilder& gpus(int per_instance, std::string gpu = "") {
    return set([&](Zone& z) { z.gpus_per_instance = per_instance, z.gpu = std::move(gpu); });
  }

  MarketBuilder& exact_billing() {
    market_.billing = Billing{0, 1};
    return *this;
  }  // per millisecond, no minimum
  MarketBuilder& tick(Millis tick) {
    market_.tick = tick;
    return *this;
  }
  MarketBuilder& span(Millis span) {
    market_.span = span;
    return *this;
  }
  MarketBuilder& egress(std::string from, std::string to, double usd_per_gb) {
    market_.migration.egress.push_back({std::move(from), std::move(to), usd_per_gb});
    return *this;
  }
  // USD per GB between every ordered pair of the zones' distinct regions.
  MarketBuilder& egress_between_all_regions(double usd_per_gb) {
    const std::vector<std::string> regions = market_regions(market_);
    for (const std::string& from : regions) {
      for (const std::string& to : regions) {
        if (from != to) egress(from, to, usd_per_gb);
      }
    }
    return *this;
  }

  SpotMarket build() const { return market_; }

 private:
  template <typename Change>
  MarketBuilder& set(Change change) {
    if (market_.zones.empty()) throw std::logic_error("MarketBuilder: a zone's setting before any zone()");
    change(market_.zones.back());
    return *this;
  }

  SpotMarket market_;
};

}  // namespace spotsim::testing

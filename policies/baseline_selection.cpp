// The two baselines every comparison needs: always spot, and always on-demand.
#include <memory>

#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

// Always spot, in the cheapest zone where it can be obtained; wait while none can.
class SpotOnlyPolicy final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone);
    const int zone = cheapest_obtainable_spot_zone(obs);
    return zone < 0 ? SelectionDecision::wait() : SelectionDecision::spot(zone);
  }
};

// Always on-demand in the cheapest zone: never preempted, the reference cost.
class OnDemandPolicy final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    if (obs.purchase == Purchase::kOnDemand) return SelectionDecision::on_demand(obs.zone);
    return SelectionDecision::on_demand(cheapest_on_demand_zone(obs));
  }
};

}  // namespace

void register_spot_only(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "spot-only", "always spot, cheapest zone where it is obtainable; waits while none is", "",
      [](const PolicyParams&) { return std::make_unique<SpotOnlyPolicy>(); }});
}

void register_on_demand(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "on-demand", "always on-demand in the cheapest zone (never preempted)", "",
      [](const PolicyParams&) { return std::make_unique<OnDemandPolicy>(); }});
}

}  // namespace spotsim

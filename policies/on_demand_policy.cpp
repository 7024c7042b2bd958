// `on-demand`: never preempted; the reference cost every comparison needs.
#include <memory>

#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

// Always on-demand in the cheapest zone.
class OnDemandPolicy final : public SelectionPolicy {
 public:
  bool decision_holds_until_review() const override { return true; }  // reads prices alone
  SelectionDecision decide(const Observation& obs) override {
    if (obs.purchase == Purchase::kOnDemand) return SelectionDecision::on_demand(obs.zone);
    return SelectionDecision::on_demand(cheapest_on_demand_zone(obs));
  }
};

}  // namespace

void register_on_demand(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{"on-demand", "always on-demand in the cheapest zone (never preempted)", "",
                                            [](const PolicyParams&) { return std::make_unique<OnDemandPolicy>(); }});
}

}  // namespace spotsim

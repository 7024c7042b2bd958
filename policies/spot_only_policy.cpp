// `spot-only`: the lower bound on price and, with a deadline, the policy most likely to miss it.
#include <memory>

#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

// Always spot, in the cheapest zone where it can be obtained; wait while none can.
class SpotOnlyPolicy final : public SelectionPolicy {
 public:
  bool decision_holds_until_review() const override { return true; }  // reads availability and prices alone
  SelectionDecision decide(const Observation& obs) override {
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone);
    const int zone = cheapest_obtainable_spot_zone(obs);
    return zone < 0 ? SelectionDecision::wait() : SelectionDecision::spot(zone);
  }
};

}  // namespace

void register_spot_only(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "spot-only", "always spot, cheapest zone where it is obtainable; waits while none is", "",
      [](const PolicyParams&) { return std::make_unique<SpotOnlyPolicy>(); }});
}

}  // namespace spotsim

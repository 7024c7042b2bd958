// Greedy (Wu et al., "Can't Be Late", NSDI'24, the Greedy baseline): use spot whenever it can be obtained, wait
// while it cannot, and move to on-demand for good at the last moment the deadline allows.
//
// The last moment is the shared safety net (policies/deadline_math.hpp): off spot, commit once the slack left
// after finishing on on-demand falls to one changeover (the paper's R <= C + 2d); on spot, once it falls to zero
// (R <= C + d), except that a lossless job computing on spot keeps its instance until a preemption (the paper's
// Exploitation Rule: it loses no slack while it runs). A spot instance still starting is judged by the spot rule,
// as in the authors' code.
#include <memory>

#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

class GreedyPolicy final : public SelectionPolicy {
 public:
  void reset() override { committed_ = false; }
  // Its answer moves with time only through the safety net, whose review time it passes on.
  bool decision_holds_until_review() const override { return true; }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = on_demand_zone_choice(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    const int spot_zone = cheapest_obtainable_spot_zone(obs);
    const SafetyNet net = safety_net(obs, spot_zone);
    if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_)) return *imposed;
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, net.review_at);
    return spot_zone < 0 ? SelectionDecision::wait(net.review_at) : SelectionDecision::spot(spot_zone, net.review_at);
  }

 private:
  bool committed_ = false;
};

}  // namespace

void register_greedy(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "greedy",
      "spot whenever obtainable, else wait; on-demand for good at the last moment the deadline allows, a running "
      "spot instance kept while the deadline can absorb its loss (Wu et al., NSDI'24, Greedy)",
      "", [](const PolicyParams&) { return std::make_unique<GreedyPolicy>(); }});
}

}  // namespace spotsim

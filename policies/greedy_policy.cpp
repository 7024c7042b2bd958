// Greedy (Wu et al., "Can't Be Late", NSDI'24, the Greedy baseline): use spot whenever it can be obtained, wait
// while it cannot, and switch to on-demand for good at the last moment the deadline can still be met.
//
// "Last moment" accounts for changeovers: moving to on-demand costs d (start-up and restore), and a job that takes
// spot must keep enough slack to survive a preemption afterwards, so the policy commits once the on-demand slack
// (time to deadline minus the time to finish on on-demand) falls below one more changeover d. Slack only shrinks
// while the job waits or loses work, so asking again exactly when it would reach that threshold is enough.
#include <memory>

#include "policies/deadline_math.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

class GreedyPolicy final : public SelectionPolicy {
 public:
  void reset() override { committed_ = false; }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone : cheapest_on_demand_zone(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    Millis review_at = kNever;
    if (obs.has_deadline()) {
      const Millis spare = time_to_last_safe_moment(obs);
      if (spare <= 0) {
        committed_ = true;
        return SelectionDecision::on_demand(od_zone);
      }
      review_at = obs.now + spare;
    }
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, review_at);
    const int zone = cheapest_obtainable_spot_zone(obs);
    return zone < 0 ? SelectionDecision::wait(review_at) : SelectionDecision::spot(zone, review_at);
  }

 private:
  bool committed_ = false;
};

}  // namespace

void register_greedy(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "greedy",
      "spot whenever obtainable, else wait; on-demand for good at the last moment the deadline allows "
      "(Wu et al., NSDI'24, Greedy)",
      "", [](const PolicyParams&) { return std::make_unique<GreedyPolicy>(); }});
}

}  // namespace spotsim

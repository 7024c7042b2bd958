#include "policies/skypilot_recovery.hpp"

#include <tuple>

#include "policies/deadline_rules.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

class SkyPilotRecoveryPolicy final : public SelectionPolicy {
 public:
  explicit SkyPilotRecoveryPolicy(RecoveryStrategy strategy) : strategy_(strategy) {}

  void reset() override {
    committed_ = false;
    last_region_ = -1;
    preemptions_seen_ = 0;
  }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone : cheapest_on_demand_zone_in_state_region(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    // A recovery is the first launch after a preemption (SkyPilot's recover()); later tries search everywhere.
    const bool recovering = obs.preemptions > preemptions_seen_;
    preemptions_seen_ = obs.preemptions;
    const int spot_zone = next_spot_zone(obs, recovering);
    const SafetyNet net = safety_net(obs, spot_zone);
    if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_)) return remember(obs, *imposed);
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, net.review_at);
    if (spot_zone < 0) return SelectionDecision::wait(net.review_at);
    return remember(obs, SelectionDecision::spot(spot_zone, net.review_at));
  }

 private:
  // The region of the launched resources, which FailoverStrategyExecutor notes down to retry there first.
  SelectionDecision remember(const Observation& obs, SelectionDecision d) {
    if (d.purchase == Purchase::kSpot) last_region_ = obs.zones[static_cast<std::size_t>(d.zone)].region;
    return d;
  }

  // The first zone, in the strategy's order, where spot can be obtained and whose transfer the deadline allows.
  int next_spot_zone(const Observation& obs, bool recovering) const {
    int best = -1;
    auto key = [&](int z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      const bool same_region = last_region_ >= 0 && v.region == last_region_;
      // FAILOVER: the launched region first (step 1), then anywhere. EAGER_NEXT_REGION: at a recovery the
      // launched region is blocked (step 2), then anywhere (step 3): putting it last gives the same choice.
      const bool later =
          strategy_ == RecoveryStrategy::kFailover ? (last_region_ >= 0 && !same_region) : (recovering && same_region);
      return std::make_tuple(later, v.spot_price_per_hour, z);
    };
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      if (!obs.zones[static_cast<std::size_t>(z)].spot_available || !transfer_fits(obs, z)) continue;
      if (best < 0 || key(z) < key(best)) best = z;
    }
    return best;
  }

  RecoveryStrategy strategy_;
  bool committed_ = false;
  int last_region_ = -1;  // region of the last spot launch; -1 before the first
  int preemptions_seen_ = 0;
};

}  // namespace

std::unique_ptr<SelectionPolicy> make_skypilot_recovery_policy(RecoveryStrategy strategy) {
  return std::make_unique<SkyPilotRecoveryPolicy>(strategy);
}

}  // namespace spotsim

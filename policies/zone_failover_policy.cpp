// Zone failover: the multi-zone practice of managed spot services (e.g. SkyPilot's failover across zones and
// regions): after a preemption, retry spot in the next zone (in order, wrapping around) where it can be obtained,
// optionally skipping the zone that just preempted the job for a cool-down; fall back to on-demand for good after
// `attempts` consecutive failed spot attempts (an attempt fails when the instance is preempted before any new
// progress was saved), or when the deadline requires it (same safety margin as greedy).
#include <algorithm>
#include <memory>
#include <vector>

#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

struct FailoverSettings {
  int attempts = 3;
  Millis cooldown = 30 * kMillisPerMinute;  // 0 = never skip the zone that just preempted
};

class ZoneFailoverPolicy final : public SelectionPolicy {
 public:
  explicit ZoneFailoverPolicy(FailoverSettings s) : s_(s) {}

  void reset() override {
    fell_back_ = false;
    failures_ = 0;
    preemptions_seen_ = 0;
    zone_ = -1;
    saved_at_launch_ = 0;
    cooling_until_.clear();
  }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = on_demand_zone_choice(obs);
    if (cooling_until_.size() != obs.zones.size()) cooling_until_.assign(obs.zones.size(), 0);
    if (fell_back_) return SelectionDecision::on_demand(od_zone);
    const int spot_zone = cheapest_obtainable_spot_zone(obs);
    const SafetyNet net = safety_net(obs, spot_zone);
    if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, fell_back_)) return *imposed;
    const Millis review_at = net.review_at;
    if (obs.preemptions > preemptions_seen_) {  // the last spot attempt in zone_ just ended
      preemptions_seen_ = obs.preemptions;
      failures_ = obs.committed > saved_at_launch_ ? 0 : failures_ + 1;
      if (zone_ >= 0 && s_.cooldown > 0) cooling_until_[static_cast<std::size_t>(zone_)] = obs.now + s_.cooldown;
      if (failures_ >= s_.attempts) return fall_back(od_zone);
    }
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, review_at);
    // Next zone in order after the last one tried, skipping unobtainable and cooling zones.
    const int n = static_cast<int>(obs.zones.size());
    Millis earliest_cooled = kNever;
    for (int k = 1; k <= n; ++k) {
      const int z = ((zone_ < 0 ? -1 : zone_) + k + n) % n;
      const auto zi = static_cast<std::size_t>(z);
      if (!obs.zones[zi].spot_available) continue;
      if (cooling_until_[zi] > obs.now) {
        earliest_cooled = std::min(earliest_cooled, cooling_until_[zi]);
        continue;
      }
      zone_ = z;
      saved_at_launch_ = obs.committed;
      return SelectionDecision::spot(z, review_at);
    }
    return SelectionDecision::wait(std::min(review_at, earliest_cooled));
  }

 private:
  SelectionDecision fall_back(int od_zone) {
    fell_back_ = true;
    return SelectionDecision::on_demand(od_zone);
  }

  FailoverSettings s_;
  bool fell_back_ = false;
  int failures_ = 0;
  int preemptions_seen_ = 0;
  int zone_ = -1;  // zone of the current or last spot attempt
  Millis saved_at_launch_ = 0;
  std::vector<Millis> cooling_until_;
};

}  // namespace

void register_zone_failover(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "zone-failover",
      "after a preemption retry spot in the next zone with availability (skipping the one that preempted for a "
      "cool-down); on-demand after N failed attempts or when the deadline requires",
      "attempts=3, cooldown=30m (0 = no cool-down)", [](const PolicyParams& p) {
        FailoverSettings s;
        s.attempts = p.integer("attempts", s.attempts, 1, 1000);
        s.cooldown = p.duration("cooldown", s.cooldown);
        return std::make_unique<ZoneFailoverPolicy>(s);
      }});
}

}  // namespace spotsim

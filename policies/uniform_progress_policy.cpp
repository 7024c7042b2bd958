// Uniform Progress (Wu et al., "Can't Be Late: Optimizing Spot Instance Savings under Deadlines", NSDI'24, §4),
// as the authors' simulator runs it: keep the job's progress cp(t) on the line ep(t) = C0 * t / D.
//
//  1. Taking risks: take spot whenever it can be obtained, even when behind; keep it until preempted.
//  2. Uniform progress: while waiting and behind the line (cp(t) < ep(t)), move to on-demand to catch up.
//  3. Hysteresis: once on on-demand, stay until spot can be obtained and cp(t) > ep(t + 2d); once that holds,
//     stay on on-demand until spot returns rather than going idle (parameter idle_ahead=true instead goes idle
//     when ahead, the paper's text read literally).
//  4. Safety net: the shared last-safe-moment rule (policies/deadline_rules.hpp).
//
// `uniform-progress-multi` is the same rule over zones of several regions: spot in the state's region first (no
// transfer), then the lowest effective price (zone_choice.hpp), only where the transfer fits the deadline; on-demand
// in the state's region. With one region it chooses exactly as `uniform-progress`.
//
// In the event-driven mode the policy asks to be consulted when a condition will next flip instead of every
// tick: when the line catches up with a waiting job, when the hysteresis is met on on-demand (and then when spot
// returns), and at the last safe moment.
#include <algorithm>
#include <cmath>
#include <memory>

#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

__extension__ using Wide = __int128;  // products of two millisecond counts exceed 64 bits

// cp >= C0 * t / D and cp > C0 * t / D, exactly (integer products; the authors' floating-point tests agree
// wherever they are exact, ties included).
bool at_or_ahead_of_line(Millis progress, Millis elapsed, const JobSpec& job) {
  return static_cast<Wide>(progress) * job.deadline >= static_cast<Wide>(elapsed) * job.work;
}
bool ahead_of_line(Millis progress, Millis elapsed, const JobSpec& job) {
  return static_cast<Wide>(progress) * job.deadline > static_cast<Wide>(elapsed) * job.work;
}

class UniformProgressPolicy final : public SelectionPolicy {
 public:
  UniformProgressPolicy(bool idle_ahead, bool multi_region) : idle_ahead_(idle_ahead), multi_region_(multi_region) {}
  void reset() override { committed_ = false; }
  // Its clock-driven conditions (the line, the hysteresis, the safety net) each ask for their review. The multi-region
  // variant also weighs whether a transfer still fits the deadline, which moves with the clock unannounced.
  bool decision_holds_until_review() const override { return !multi_region_; }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone
                        : multi_region_                     ? cheapest_on_demand_zone_in_state_region(obs)
                                                            : on_demand_zone_choice(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    const int spot_zone = multi_region_ ? spot_zone_state_region_first(obs) : cheapest_obtainable_spot_zone(obs);
    if (!obs.has_deadline()) {  // without a deadline there is no line to follow: take spot, wait for it
      if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone);
      return spot_zone < 0 ? SelectionDecision::wait() : SelectionDecision::spot(spot_zone);
    }
    const SafetyNet net = safety_net(obs, spot_zone);
    if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_)) return *imposed;
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, net.review_at);
    const Millis d = changeover(obs);
    if (obs.purchase == Purchase::kOnDemand) {
      if (!ahead_of_line(obs.progress, obs.elapsed + 2 * d, *obs.job)) {
        return SelectionDecision::on_demand(od_zone, std::min(net.review_at, hysteresis_met_at(obs, 0)));
      }
      if (spot_zone >= 0) return SelectionDecision::spot(spot_zone, net.review_at);
      if (!idle_ahead_) return SelectionDecision::on_demand(od_zone, net.review_at, /*wake_on_spot=*/true);
    }
    if (spot_zone >= 0) return SelectionDecision::spot(spot_zone, net.review_at);
    if (!at_or_ahead_of_line(obs.progress, obs.elapsed, *obs.job)) {
      return SelectionDecision::on_demand(od_zone, std::min(net.review_at, hysteresis_met_at(obs, d)));
    }
    // Ahead of the line with no spot: wait until the line catches up.
    const double rate = static_cast<double>(obs.job->work) / static_cast<double>(obs.job->deadline);
    const auto line_meets = static_cast<Millis>(std::ceil(static_cast<double>(obs.progress) / rate));
    // In the tick mode a tick early: a review is safe early (asked again, it asks for a later one), never late, and
    // the double above may round across a boundary.
    return SelectionDecision::wait(
        std::min(net.review_at, obs.now + std::max<Millis>(1, line_meets - obs.elapsed - obs.decision_tick)));
  }

 private:
  // When cp > ep(t + 2d) will first hold on on-demand, computing from `delay` on (the changeover of a launch):
  // progress then grows at rate 1 and the line at C0/D < 1, so it solves cp + (t' - t - delay) = r (t' + 2d).
  // Start-up and checkpoint writes postpone it; the policy checks again and asks for a later review if so.
  static Millis hysteresis_met_at(const Observation& obs, Millis delay) {
    const double rate = static_cast<double>(obs.job->work) / static_cast<double>(obs.job->deadline);
    if (rate >= 1.0) return kNever;
    const auto d = static_cast<double>(changeover(obs));
    const double gap = rate * (static_cast<double>(obs.elapsed) + 2.0 * d) - static_cast<double>(obs.progress);
    const double wait = (gap + rate * static_cast<double>(delay)) / (1.0 - rate) + static_cast<double>(delay);
    return obs.now + std::max<Millis>(1, static_cast<Millis>(std::ceil(wait)) - obs.decision_tick);  // early: safe
  }

  bool idle_ahead_;
  bool multi_region_;
  bool committed_ = false;
};

}  // namespace

void register_uniform_progress(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "uniform-progress",
      "keep progress on the line work*t/deadline: spot whenever obtainable, on-demand when behind and waiting, "
      "leaving on-demand only when spot is back and progress is 2d ahead (Wu et al., NSDI'24, Uniform Progress, "
      "as the authors' simulator runs it)",
      "idle_ahead=false (true: once 2d ahead, go idle when spot is gone instead of staying on on-demand)",
      [](const PolicyParams& p) {
        return std::make_unique<UniformProgressPolicy>(p.flag("idle_ahead", false), /*multi_region=*/false);
      }});
}

void register_uniform_progress_multi(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "uniform-progress-multi",
      "uniform-progress over several regions: spot in the state's region first, then the cheapest counting "
      "transfer and egress, where the transfer fits the deadline; on-demand in the state's region",
      "idle_ahead=false (as uniform-progress)", [](const PolicyParams& p) {
        return std::make_unique<UniformProgressPolicy>(p.flag("idle_ahead", false), /*multi_region=*/true);
      }});
}

}  // namespace spotsim

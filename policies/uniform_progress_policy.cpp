// Uniform Progress (Wu et al., "Can't Be Late: Optimizing Spot Instance Savings under Deadlines", NSDI'24, §4):
// keep the job's progress cp(t) on the line ep(t) = C0 * t / D from the start to the deadline.
//
//  1. Uniform progress: while idle and behind the line (cp(t) < ep(t)), switch to on-demand to catch up.
//  2. Taking risks: switch to spot whenever it is obtainable, even when behind; stay on it until preempted.
//  3. Hysteresis: once on on-demand, stay until ahead of the line by two changeovers, cp(t) >= ep(t + 2d).
//  4. Safety net: when the slack left is below the changeover margin (time to deadline < time to finish on
//     on-demand + d, i.e. the paper's R(t) < C(t) + 2d with d counted once in the finish time), switch to
//     on-demand and stay until the end.
//
// Instead of re-checking every tick, the policy asks to be consulted when a condition will next flip: when the
// line catches up with an idle job, when the hysteresis is met on on-demand, and when the slack would reach the
// safety margin.
#include <algorithm>
#include <cmath>
#include <memory>

#include "policies/deadline_math.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

class UniformProgressPolicy final : public SelectionPolicy {
 public:
  void reset() override { committed_ = false; }

  SelectionDecision decide(const Observation& obs) override {
    const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone : cheapest_on_demand_zone(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    const int spot_zone = cheapest_obtainable_spot_zone(obs);
    if (!obs.has_deadline()) {  // without a deadline there is no line to follow: take spot, wait for it
      if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone);
      return spot_zone < 0 ? SelectionDecision::wait() : SelectionDecision::spot(spot_zone);
    }
    const Millis d = changeover(obs);
    // 4. Safety net.
    const Millis spare = time_to_last_safe_moment(obs);
    if (spare <= 0) {
      committed_ = true;
      return SelectionDecision::on_demand(od_zone);
    }
    const Millis safety_review = obs.now + spare;
    const double rate = static_cast<double>(obs.job->work) / static_cast<double>(obs.job->deadline);  // C0 / D
    const auto expected = [&](Millis elapsed) { return rate * static_cast<double>(elapsed); };
    const auto progress = static_cast<double>(obs.progress);

    // 2. Taking risks (an on-demand job first honours its hysteresis).
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone, safety_review);
    if (obs.purchase == Purchase::kOnDemand) {
      // 3. Hysteresis: on-demand until cp(t) >= ep(t + 2d). Progress grows at rate 1 on on-demand and the line
      //    at rate C0/D < 1, so the time that happens solves cp + (t' - t) = rate * (t' + 2d).
      if (progress < expected(obs.elapsed + 2 * d)) {
        const double catch_up = (rate * static_cast<double>(2 * d) - progress + static_cast<double>(obs.elapsed) * rate) /
                                (1.0 - rate);
        const Millis at = obs.now + std::max<Millis>(1, static_cast<Millis>(std::ceil(catch_up)));
        return SelectionDecision::on_demand(obs.zone, std::min(at, safety_review));
      }
    }
    if (spot_zone >= 0) return SelectionDecision::spot(spot_zone, safety_review);
    // 1. Uniform progress: no spot, so on-demand if behind the line, else wait until the line catches up.
    if (progress < expected(obs.elapsed)) return SelectionDecision::on_demand(od_zone, safety_review);
    const Millis line_meets = static_cast<Millis>(std::ceil(progress / rate));  // elapsed time where ep = cp
    return SelectionDecision::wait(std::min(safety_review, obs.now + std::max<Millis>(1, line_meets - obs.elapsed)));
  }

 private:
  bool committed_ = false;
};

}  // namespace

void register_uniform_progress(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "uniform-progress",
      "keep progress on the line work*t/deadline: spot whenever obtainable, on-demand when behind, with 2d "
      "hysteresis and a safety net (Wu et al., NSDI'24, Uniform Progress)",
      "", [](const PolicyParams&) { return std::make_unique<UniformProgressPolicy>(); }});
}

}  // namespace spotsim

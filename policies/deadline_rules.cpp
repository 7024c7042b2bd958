#include "policies/deadline_rules.hpp"

#include "policies/zone_choice.hpp"

namespace spotsim {

SafetyNet safety_net(const Observation& obs, int spot_zone, Millis margin) {
  if (!obs.has_deadline()) return {};
  const bool on_spot = obs.purchase == Purchase::kSpot;
  const Millis spare = (on_spot ? spare_on_spot(obs) : spare_off_spot(obs)) - margin;
  // When the spare runs out if nothing changes. In the tick mode spare is a whole number of ticks and falls by one
  // tick per tick while off spot, so the boundary at now + spare is the first where it is 0: the review is exact
  // there (and early, so safe, on an instance whose spare holds steady).
  const auto review = [&obs](Millis in) { return obs.now + in; };
  if (spare > 0) return {SafetyNet::kFree, review(spare)};
  // Exploitation Rule (Wu et al., NSDI'24 §4.1): lossless progress computing on spot loses no slack while it
  // runs, so the instance is kept until a preemption; on_demand_finish_time() already plans for that loss.
  // The instance is kept, not left to the policy: a move now (even to spot elsewhere) would spend a changeover the
  // deadline no longer has.
  if (on_spot && obs.lossless && obs.phase == Phase::kComputing) return {SafetyNet::kTakeSpot, kNever};
  // With d = 0 both rules coincide and moving costs nothing: the authors' code then takes spot when it can.
  // A zone of another region is not free to move to (its transfer is time the deadline has not got).
  const bool spot_free_to_take = spot_zone >= 0 && in_state_region(obs, spot_zone);
  if (obs.lossless && obs.job->startup == 0 && (on_spot || spot_free_to_take)) return {SafetyNet::kTakeSpot, kNever};
  return {SafetyNet::kCommit, kNever};
}

std::optional<SelectionDecision> imposed_decision(const SafetyNet& net, const Observation& obs, int od_zone,
                                                  int spot_zone, bool& committed) {
  switch (net.verdict) {
    case SafetyNet::kCommit: {
      // The net's finish time counts no transfer: a zone whose move takes time is replaced by one that does not.
      const bool needs_transfer = obs.purchase != Purchase::kOnDemand && !in_state_region(obs, od_zone);
      committed = true;
      return SelectionDecision::on_demand(needs_transfer ? cheapest_on_demand_zone_in_state_region(obs) : od_zone);
    }
    case SafetyNet::kTakeSpot: return SelectionDecision::spot(obs.purchase == Purchase::kSpot ? obs.zone : spot_zone);
    case SafetyNet::kFree: break;
  }
  return std::nullopt;
}

}  // namespace spotsim

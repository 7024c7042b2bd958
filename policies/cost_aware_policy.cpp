// spotsim's cost-aware multi-region policy: at each decision point it prices every way of running the next stretch
// of work and takes the cheapest the deadline allows, from decision-time information only.
//
// A spot option in zone z (spot obtainable there now) costs, per useful hour,
//     c_z = (p_z x (d + m_z + U_z) + e_z) / U_z,      U_z = min(E[remaining up-run of z | its age], W)
// with p_z the current spot price, d the changeover (start-up, plus the restore when something is saved), m_z and
// e_z the transfer time and egress of moving the saved state to z (ZoneView), W the remaining work, and the
// expected remaining up-run learned by survival analysis of the runs this job has seen (zone_survival.hpp). This
// is the expected spend per hour of progress before the instance is lost or the job ends; on-demand in the
// state's region costs p_od x (d + W) / W (p_od once held). With the slack s = spare_off_spot() (time the job may
// still lose, net of the safety net's own margin) the rules are:
//  1. Safety net (docs/policies.md): at s <= 0, on-demand in the state's region for good (no transfer to wait for).
//  2. A running spot instance is kept unless moving pays: another zone's c_y, with its changeover, transfer and
//     egress charged to its expected run, below (1 - `move_gain`) x the price p_z paid now, and the move's
//     changeover and transfer fitting the slack with `leave_slack` to spare. A zone that is cheaper but whose
//     runs have been short, or whose egress the expected run cannot recoup, does not tempt it.
//  3. Off spot, the cheapest spot option is taken when it beats on-demand and its transfer fits in the slack
//     (s - m_z > 0: the safety net's margin already keeps a changeover for a failed attempt).
//  4. Nothing worth taking: wait while s exceeds `reserve` x W (kept for the changeovers the rest of the job will
//     cost: `adaptive`'s gap rule and default) and, with `pace` > 0, the job is at or ahead of `pace` x Can't Be
//     Late's line (pace = 1: the line itself, which spreads the slack over the job instead of spending it on the
//     first long gap; off by default: on the recorded markets spot gaps are short and waiting pays); otherwise
//     fill the gap with on-demand and stay there until spot is worth taking again (never back to an idle wait).
//  3'. Before rule 3: a zone down now whose c_z (as if obtainable) is below (1 - `move_gain`) x the best option now,
//     and whose expected return (Kaplan-Meier of its own down-runs seen by this run, zone_survival.hpp) plus
//     transfer fits the waiting allowance of rule 4, is waited for: waiting costs slack, not money.
//  5. On on-demand, spot is taken only when it beats on-demand and s - m_z exceeds `leave_slack` (hysteresis:
//     a failed attempt costs a changeover to spot and one back).
// Every decision asks for a review within `review` so that the zones keep being observed.
#include <algorithm>
#include <memory>

#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"
#include "policies/zone_survival.hpp"

namespace spotsim {

namespace {

struct CostAwareSettings {
  Millis review = 10 * kMillisPerMinute;
  Millis leave_slack = 30 * kMillisPerMinute;
  double reserve = 0.15;
  double pace = 0.0;
  double move_gain = 0.1;
  SurvivalPrior prior;
};

class CostAwarePolicy final : public SelectionPolicy {
 public:
  explicit CostAwarePolicy(CostAwareSettings s) : s_(s), survival_(s.prior) {}

  void reset() override {
    committed_ = false;
    survival_.reset();
  }

  SelectionDecision decide(const Observation& obs) override {
    survival_.observe(obs);
    const bool on_od = obs.purchase == Purchase::kOnDemand;
    const int od_zone = on_od ? obs.zone : cheapest_on_demand_zone_in_state_region(obs);
    if (committed_) return SelectionDecision::on_demand(od_zone);
    const Millis review = obs.decision_tick > 0 ? kNever : obs.now + s_.review;
    // On spot the instance is kept (rule 2) unless a move pays; the zones keep being watched.
    const bool on_spot = obs.purchase == Purchase::kSpot;
    const int spot_zone = on_spot ? obs.zone : best_spot_zone(obs, on_od ? s_.leave_slack : 0);
    const SafetyNet net = safety_net(obs, spot_zone);
    if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_)) return *imposed;
    const Millis next = std::min(review, net.review_at);
    if (on_spot) {
      const int better = obs.phase == Phase::kComputing ? zone_worth_moving_to(obs) : -1;
      return SelectionDecision::spot(better >= 0 ? better : obs.zone, next);
    }
    if (!on_od && obs.has_deadline()) {
      const Millis back = cheaper_zone_back_in(obs, spot_zone, od_zone);
      if (back != kNever) return SelectionDecision::wait(std::min(next, obs.now + std::max<Millis>(back, 1)));
    }
    const bool worth_it = spot_zone >= 0 && spot_cost_per_hour(obs, spot_zone) < on_demand_cost_per_hour(obs, od_zone);
    if (worth_it) return SelectionDecision::spot(spot_zone, next);
    if (on_od) return SelectionDecision::on_demand(od_zone, next, /*wake_on_spot=*/true);
    if (!obs.has_deadline()) return SelectionDecision::wait(next);
    const Millis allowance = waiting_allowance(obs, s_);
    if (allowance > 0) return SelectionDecision::wait(std::min(next, obs.now + allowance));
    return SelectionDecision::on_demand(od_zone, next, /*wake_on_spot=*/true);
  }

 private:
  // How long a job with no spot worth taking may still wait: while the slack s stays above `reserve` x remaining
  // work (kept for the changeovers the rest of the job will cost), and while the plain slack, time left minus work
  // left, stays at or above `pace` x the share uniform progress keeps, (D - t) x (D - C0) / D (with pace = 1
  // exactly Can't Be Late's "at or ahead of the line"). 0 = no longer. The plain slack falls at rate 1 while
  // waiting and the share at (D - C0) / D, hence the division.
  static Millis waiting_allowance(const Observation& obs, const CostAwareSettings& s) {
    const double slack = static_cast<double>(spare_off_spot(obs));
    const double by_reserve = slack - s.reserve * static_cast<double>(obs.remaining_work());
    const double deadline = static_cast<double>(obs.job->deadline);
    const double share = std::max(deadline - static_cast<double>(obs.job->work), 0.0) / deadline;
    const double left = static_cast<double>(obs.time_to_deadline());
    const double plain = left - static_cast<double>(obs.remaining_work());
    const double by_pace = (plain - s.pace * share * left) / (1.0 - s.pace * share);
    const double allowance = std::min(by_reserve, by_pace);
    return allowance <= 0.0 ? 0 : std::max<Millis>(1, static_cast<Millis>(allowance));
  }

  double spot_cost_per_hour(const Observation& obs, int z) const {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    const Millis useful = std::max<Millis>(std::min(survival_.expected_remaining(z, obs.elapsed), obs.remaining_work()),
                                           kMillisPerMinute);
    const double hours = to_hours(changeover(obs) + v.migration_time + useful);
    return (v.spot_price_per_hour * hours + v.migration_cost) / to_hours(useful);
  }

  double on_demand_cost_per_hour(const Observation& obs, int z) const {
    const double price = obs.zones[static_cast<std::size_t>(z)].on_demand_price_per_hour;
    if (obs.purchase == Purchase::kOnDemand) return price;
    const Millis work = std::max<Millis>(obs.remaining_work(), kMillisPerMinute);
    return price * to_hours(changeover(obs) + work) / to_hours(work);
  }

  // Rule 3': how long until a zone that is down now but would be cheaper by `move_gain` than the best option now
  // (spot, or on-demand if no spot is worth it) is expected back, if waiting for it (and moving there) fits the
  // waiting allowance; kNever otherwise. Waiting costs nothing but slack, which the allowance keeps a reserve of.
  Millis cheaper_zone_back_in(const Observation& obs, int spot_zone, int od_zone) const {
    const double now_cost = spot_zone >= 0
                                ? std::min(spot_cost_per_hour(obs, spot_zone), on_demand_cost_per_hour(obs, od_zone))
                                : on_demand_cost_per_hour(obs, od_zone);
    const Millis allowance = waiting_allowance(obs, s_);
    Millis soonest = kNever;
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      if (v.spot_available) continue;
      const Millis back = survival_.expected_down_remaining(z, obs.elapsed);
      if (back + v.migration_time > allowance) continue;
      if (spot_cost_per_hour(obs, z) < (1.0 - s_.move_gain) * now_cost) soonest = std::min(soonest, back);
    }
    return soonest;
  }

  // Rule 2: the spot zone worth leaving the running instance for, or -1.
  int zone_worth_moving_to(const Observation& obs) const {
    const double staying = obs.zones[static_cast<std::size_t>(obs.zone)].spot_price_per_hour;
    const Millis spare = obs.has_deadline() ? spare_off_spot(obs) : kNever;
    int best = -1;
    double best_cost = (1.0 - s_.move_gain) * staying;
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      if (z == obs.zone || !v.spot_available) continue;
      if (spare != kNever && spare - changeover(obs) - v.migration_time - s_.leave_slack <= 0) continue;
      const double cost = spot_cost_per_hour(obs, z);
      if (cost < best_cost) {
        best = z;
        best_cost = cost;
      }
    }
    return best;
  }

  // The cheapest spot option whose transfer (plus `extra` slack) fits the deadline; -1 if none.
  int best_spot_zone(const Observation& obs, Millis extra) const {
    const Millis spare = obs.has_deadline() && obs.purchase != Purchase::kSpot ? spare_off_spot(obs) : kNever;
    int best = -1;
    double best_cost = 0.0;
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      if (!v.spot_available) continue;
      if (spare != kNever && spare - v.migration_time - extra <= 0) continue;
      const double cost = spot_cost_per_hour(obs, z);
      if (best < 0 || cost < best_cost) {
        best = z;
        best_cost = cost;
      }
    }
    return best;
  }

  CostAwareSettings s_;
  ZoneSurvival survival_;
  bool committed_ = false;
};

}  // namespace

void register_cost_aware(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "cost-aware",
      "spotsim's multi-region policy: per zone, spot price x (changeover + transfer + expected useful time) + "
      "egress per useful hour, the expected remaining spot run learned by Kaplan-Meier from this run's own "
      "observations; the cheapest option that beats on-demand and fits the slack, a running spot instance kept "
      "unless a move is cheaper by move_gain, "
      "gaps filled with on-demand once the slack falls to a reserve or behind Can't Be Late's line, on-demand in "
      "the state's region when the deadline requires",
      "review=10m (how often zones are observed), prior_up=2h (expected spot run before any is seen), "
      "prior_down=1h (expected time spot stays away before any return is seen), "
      "shrink=3 (runs the pooled estimate is worth per zone), reserve=0.15 (slack kept, x remaining work, before "
      "gaps are filled with on-demand), pace=0 (share of Can't Be Late's line kept too while waiting; 1 = the line), "
      "leave_slack=30m (slack needed to leave on-demand for spot, or to move a running spot instance), "
      "move_gain=0.1 (a running spot instance moves only for an option at least this much cheaper per useful hour)",
      [](const PolicyParams& p) {
        CostAwareSettings s;
        s.review = p.positive_duration("review", s.review);
        s.leave_slack = p.duration("leave_slack", s.leave_slack);
        s.reserve = p.number("reserve", s.reserve, 0.0, 1.0);
        s.pace = p.number("pace", s.pace, 0.0, 1.0);
        s.move_gain = p.number("move_gain", s.move_gain, 0.0, 1.0);
        s.prior.mean_up = p.positive_duration("prior_up", s.prior.mean_up);
        s.prior.mean_down = p.positive_duration("prior_down", s.prior.mean_down);
        s.prior.strength = p.number("shrink", s.prior.strength, 0.0, 1000.0);
        return std::make_unique<CostAwarePolicy>(s);
      }});
}

}  // namespace spotsim

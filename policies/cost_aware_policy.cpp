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
//     egress charged to its expected run, below (1 - `move_gain`)^(1 + k) x the price p_z paid now, k the zone
//     changes of the last `memory` (hysteresis: a job bounced between zones needs an ever better reason to move
//     again), and the move's changeover and transfer fitting the slack with `leave_slack` to spare. A zone that is
//     cheaper but whose runs have been short, or whose egress the expected run cannot recoup, does not tempt it.
//     Nor does one whose changeover the slack cannot sustain: a move spends (d + m_y) of slack per expected run
//     U_y; at that rate the rest of the job would need (d + m_y) / U_y x W, which must fit in `slack_rate` x s
//     (a tight deadline keeps its slack for long runs instead of spending it on zones that flicker).
//  3. Off spot, the cheapest spot option is taken when it beats on-demand and its transfer fits in the slack
//     (s - m_z > 0: the safety net's margin already keeps a changeover for a failed attempt).
//  4. Nothing worth taking: wait while s exceeds `reserve` x W (kept for the changeovers the rest of the job will
//     cost: `adaptive`'s gap rule and default) and, with `pace` > 0, the job is at or ahead of `pace` x Can't Be
//     Late's line (pace = 1: the line itself, which spreads the slack over the job instead of spending it on the
//     first long gap; off by default: on the recorded markets spot gaps are short and waiting pays); otherwise
//     fill the gap with on-demand and stay there until spot is worth taking again (never back to an idle wait).
//  3''. Off spot, a spot price over (1 + `premium`) x the cheapest spot price of any zone is no bargain: while
//     the waiting allowance of rule 4 lasts, it is waited out like on-demand (the cheap zones are likely back first).
//  3'. Before rule 3: a zone down now whose c_z (as if obtainable) is below (1 - `move_gain`) x the best option now,
//     and whose expected return (Kaplan-Meier of its own down-runs seen by this run, zone_survival.hpp) plus
//     transfer fits the waiting allowance of rule 4, is waited for: waiting costs slack, not money. With several
//     such zones down, the first back is what the job waits for (competing risks: 1 / sum of 1 / E[return]).
//  5. On on-demand, spot is taken only when it beats on-demand and s - m_z exceeds `leave_slack` (hysteresis:
//     a failed attempt costs a changeover to spot and one back); when its expected run ends before the job does,
//     the changeover back to on-demand, at the on-demand price, is charged to the run too.
// Every decision asks for a review within `review` so that the zones keep being observed.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

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
  Millis memory = 6 * kMillisPerHour;
  double premium = 1.0;
  double slack_rate = 1.0;
  SurvivalPrior prior;
};

class CostAwarePolicy final : public SelectionPolicy {
 public:
  explicit CostAwarePolicy(CostAwareSettings s) : s_(s), survival_(s.prior) {}

  void reset() override {
    committed_ = false;
    survival_.reset();
    changes_.clear();
    last_zone_ = -1;
  }

  SelectionDecision decide(const Observation& obs) override {
    survival_.observe(obs);
    note_zone_change(obs);
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
    double spot_cost = spot_zone >= 0 ? spot_cost_per_hour(obs, spot_zone) : 0.0;
    // Rule 5: leaving on-demand must also pay for the way back: if the spot run is expected to end before the job
    // does, coming back to on-demand costs another changeover at the on-demand price.
    if (on_od && spot_zone >= 0) spot_cost += return_cost_per_hour(obs, spot_zone, od_zone);
    const bool worth_it = spot_zone >= 0 && spot_cost < on_demand_cost_per_hour(obs, od_zone);
    // Rule 3'': a spot option dearer than (1 + `premium`) x the cheapest spot price of any zone is a stand-in for
    // on-demand, not spot: while off spot with slack to wait, it is waited out like on-demand (rule 4).
    const bool dear = worth_it && !on_od && obs.has_deadline() && s_.premium > 0.0 &&
                      obs.zones[static_cast<std::size_t>(spot_zone)].spot_price_per_hour >
                          (1.0 + s_.premium) * cheapest_spot_price(obs);
    if (dear) {
      const Millis allowance = waiting_allowance(obs, s_);
      if (allowance > 0) return SelectionDecision::wait(std::min(next, obs.now + allowance));
    }
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

  double return_cost_per_hour(const Observation& obs, int z, int od_zone) const {
    const Millis expected = survival_.expected_remaining(z, obs.elapsed);
    if (expected >= obs.remaining_work()) return 0.0;
    const Millis useful = std::max<Millis>(expected, kMillisPerMinute);
    const double od_price = obs.zones[static_cast<std::size_t>(od_zone)].on_demand_price_per_hour;
    return od_price * to_hours(changeover(obs)) / to_hours(useful);
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
    // Competing risks: with several cheaper zones down, the first of them back is what the job waits for; with
    // (roughly) exponential returns its expected time is 1 / sum of the rates.
    double rate = 0.0;
    Millis transfer = kNever;
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      if (v.spot_available) continue;
      if (spot_cost_per_hour(obs, z) >= (1.0 - s_.move_gain) * now_cost) continue;
      const Millis back = std::max<Millis>(survival_.expected_down_remaining(z, obs.elapsed), 1);
      rate += 1.0 / static_cast<double>(back);
      transfer = std::min(transfer, v.migration_time);
    }
    if (rate <= 0.0) return kNever;
    const Millis soonest = static_cast<Millis>(1.0 / rate);
    return soonest + transfer > allowance ? kNever : soonest;
  }

  // Rule 2: the spot zone worth leaving the running instance for, or -1.
  int zone_worth_moving_to(const Observation& obs) const {
    const double staying = obs.zones[static_cast<std::size_t>(obs.zone)].spot_price_per_hour;
    const Millis spare = obs.has_deadline() ? spare_off_spot(obs) : kNever;
    int best = -1;
    // The margin compounds with each recent zone change, so a job that has been bounced between zones needs an
    // ever better reason to move again (hysteresis against ping-pong).
    double best_cost = std::pow(1.0 - s_.move_gain, 1 + recent_changes(obs)) * staying;
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
      if (z == obs.zone || !v.spot_available) continue;
      if (spare != kNever && spare - changeover(obs) - v.migration_time - s_.leave_slack <= 0) continue;
      if (spare != kNever && !affordable_overhead(obs, z, spare)) continue;
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

  // Slack is spent by every changeover; a move that costs d + m_z of it for an expected run U_z spends it at the
  // rate (d + m_z) / U_z. If the rest of the job ran at that rate its changeovers would need (d + m_z) / U_z x W of
  // slack; a move is affordable only while that fits in the slack s (times `slack_rate`), so a tight deadline keeps
  // its slack for the long runs instead of spending it on zones that flicker.
  bool affordable_overhead(const Observation& obs, int z, Millis spare) const {
    if (s_.slack_rate <= 0.0) return true;
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    const Millis work = obs.remaining_work();
    const Millis useful = std::max<Millis>(std::min(survival_.expected_remaining(z, obs.elapsed), work), 1);
    const double overhead = static_cast<double>(changeover(obs) + v.migration_time);
    return overhead * static_cast<double>(work) <=
           s_.slack_rate * static_cast<double>(spare) * static_cast<double>(useful);
  }

  // Hysteresis: the times the job's instance changed zone (a move or a preemption followed by another zone),
  // remembered for `memory`.
  void note_zone_change(const Observation& obs) {
    if (obs.purchase == Purchase::kNone || obs.zone < 0) return;
    if (last_zone_ >= 0 && obs.zone != last_zone_) changes_.push_back(obs.elapsed);
    last_zone_ = obs.zone;
  }
  int recent_changes(const Observation& obs) const {
    int n = 0;
    for (const Millis at : changes_) n += obs.elapsed - at < s_.memory ? 1 : 0;
    return n;
  }

  CostAwareSettings s_;
  ZoneSurvival survival_;
  std::vector<Millis> changes_;
  int last_zone_ = -1;
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
      "move_gain=0.1 (a running spot instance moves only for an option at least this much cheaper per useful hour; "
      "the margin compounds with each zone change in the last `memory`=6h), slack_rate=1 (a move's changeover per "
      "expected hour of run may not exceed this x slack per hour of work left; 0 = off), premium=1 (off spot, a spot "
      "price over (1 + premium) x the cheapest zone's is waited out like on-demand while the slack lasts; 0 = off)",
      [](const PolicyParams& p) {
        CostAwareSettings s;
        s.review = p.positive_duration("review", s.review);
        s.leave_slack = p.duration("leave_slack", s.leave_slack);
        s.reserve = p.number("reserve", s.reserve, 0.0, 1.0);
        s.pace = p.number("pace", s.pace, 0.0, 1.0);
        s.move_gain = p.number("move_gain", s.move_gain, 0.0, 1.0);
        s.memory = p.duration("memory", s.memory);
        s.premium = p.number("premium", s.premium, 0.0, 100.0);
        s.slack_rate = p.number("slack_rate", s.slack_rate, 0.0, 100.0);
        s.prior.mean_up = p.positive_duration("prior_up", s.prior.mean_up);
        s.prior.mean_down = p.positive_duration("prior_down", s.prior.mean_down);
        s.prior.strength = p.number("shrink", s.prior.strength, 0.0, 1000.0);
        return std::make_unique<CostAwarePolicy>(s);
      }});
}

}  // namespace spotsim

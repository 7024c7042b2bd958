#include "policies/adaptive_policy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "model/market/lifetime_distribution.hpp"
#include "policies/checkpoint_math.hpp"
#include "policies/deadline_rules.hpp"
#include "policies/planned_policy.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

AdaptiveSettings AdaptiveSettings::from(const PolicyParams& p) {
  AdaptiveSettings s;
  s.window = p.positive_duration("window", s.window);
  s.cluster = p.integer("cluster", s.cluster, 0, 1000);
  s.significance = p.number("significance", s.significance, 1e-9, 0.5);
  s.cooldown = p.duration("cooldown", s.cooldown);
  s.max_cooldown = p.duration("max_cooldown", s.max_cooldown);
  s.margin = p.duration("margin", s.margin);
  s.review = std::max<Millis>(p.duration("review", s.review), kMillisPerMinute);
  s.hysteresis = p.number("hysteresis", s.hysteresis, 0.0, 0.9);
  s.max_wait = p.duration("max_wait", s.max_wait);
  s.reserve = p.number("reserve", s.reserve, 0.0, 10.0);  // absent: from the changeover (the header)
  s.confirm = p.duration("confirm", s.confirm);
  s.patience = p.duration("patience", s.patience);
  const std::string plan = text_parameter(p, "plan");
  if (!plan.empty() && plan != "auto" && plan != "off") {
    throw InputError("--policy '" + p.spec() + "': parameter 'plan' must be 'auto' or 'off', not '" + plan + "'");
  }
  // The rules' own parameters that this mode would use (their slack rules and the spot-worth test with its
  // prior), when given, ask for the rules: the plan has nothing to honour them with and would silently ignore them.
  // A calibration is the plan's model too (register_adaptive).
  bool rules_asked = false;
  for (const char* key :
       {"reserve", "confirm", "patience", "margin", "hysteresis", "prior_availability", "prior_mtbf", "prior_weight"}) {
    rules_asked |= !p.text(key, "").empty();
  }
  s.plan = plan != "off" && !rules_asked;
  AdaptivePriorSettings& prior = s.prior;
  prior.fallback.weight = p.duration("prior_weight", prior.fallback.weight);
  const double availability = p.number("prior_availability", -1.0, 0.0, 1.0);
  if (availability >= 0.0) prior.availability = std::max(availability, 0.01);
  const Millis mtbf = p.duration("prior_mtbf", -1);
  if (mtbf == 0) throw InputError("--policy '" + p.spec() + "': parameter 'prior_mtbf': expected a duration > 0");
  if (mtbf > 0) prior.mtbf = mtbf;
  prior.where = "--policy '" + p.spec() + "': parameter 'calibration'";
  prior.calibration_path = text_parameter(p, "calibration");
  if (!prior.calibration_path.empty()) {
    // A path or a shipped trace's name, as `planned`'s calibration (and --trace) take it.
    prior.calibration =
        CalibrationCache::process_wide().get(locate_trace(prior.calibration_path, prior.where), prior.where);
  }
  return s;
}

void AdaptivePolicy::reset() {
  history_.reset();
  committed_on_demand_ = false;
  fallback_until_ = 0;
  fallbacks_ = 0;
  preemptions_seen_ = 0;
  waiting_since_ = -1;
  last_spot_zone_ = 0;
  if (planner_) planner_->reset();
}

bool AdaptivePolicy::plans(const Observation& obs) const {
  return s_.plan && make_planner_ && obs.decision_tick > 0 && obs.lossless && obs.has_deadline() &&
         obs.zones.size() == 1;
}

void AdaptivePolicy::prepare(const Observation& obs) {
  if (priors_.size() == obs.zones.size() && priors_nodes_ == obs.job->nodes) return;
  s_.prior.priors_for(priors_, obs.zones.size(), obs.job->nodes);
  priors_nodes_ = obs.job->nodes;
}

int AdaptivePolicy::cluster_threshold(const Observation& obs) const {
  if (s_.cluster > 0) return s_.cluster;
  // k preemptions within the window need k fresh instances each dying within it: probability <= F(w)^k.
  // The smallest k with F(w)^k < significance is more than the preemption model explains.
  // The zone of the instance just preempted (the engine has released it by the time the policy is asked).
  const int zone = obs.zone >= 0 ? obs.zone : last_spot_zone_;
  const ZoneView& v = obs.zones[static_cast<std::size_t>(zone)];
  double dies_within = 0.0;
  if (v.lifetime) {
    dies_within = v.lifetime->cdf(to_hours(s_.window));
  } else {  // recorded: the learned mean time between drops
    dies_within = -std::expm1(-static_cast<double>(s_.window) * outlook(obs, zone).rate);
  }
  if (dies_within <= 0.0) return 2;
  if (dies_within >= 1.0) return std::numeric_limits<int>::max();
  return std::max(2, static_cast<int>(std::ceil(std::log(s_.significance) / std::log(dies_within))));
}

int AdaptivePolicy::recent_preemption_count(const Observation& obs) const {
  const Millis since = obs.elapsed - s_.window;
  return static_cast<int>(std::count_if(obs.recent_preemptions.begin(), obs.recent_preemptions.end(),
                                        [since](Millis t) { return t > since; }));
}

double AdaptivePolicy::estimated_rate(const Observation& obs, Millis prior) {
  if (prior == kNever) return 0.0;
  return (1.0 + obs.preemptions) / (static_cast<double>(prior) + static_cast<double>(obs.spot_time));
}

double AdaptivePolicy::preemption_overhead(const Observation& obs, double rate) {
  if (rate <= 0.0) return 1.0;
  const auto d = static_cast<double>(obs.job->startup + (obs.lossless ? 0 : obs.job->restore));
  if (obs.lossless) return 1.0 + rate * d;
  const double delta = std::max(static_cast<double>(obs.job->checkpoint_write), 1.0);
  return expected_segmented_time(1.0, daly_interval(delta, 1.0 / rate), delta, d, rate);
}

AdaptivePolicy::Outlook AdaptivePolicy::outlook(const Observation& obs, int zone) const {
  const ZoneView& v = obs.zones[static_cast<std::size_t>(zone)];
  Outlook o;
  if (v.lifetime) {
    // Synthetic zone: the lifetime model is known by construction. Availability: the zone's long-run fraction,
    // worth prior_weight of observation, updated by this run's spot and waiting time.
    o.rate = estimated_rate(obs, v.spot_mtbf);
    const auto w = static_cast<double>(s_.prior.fallback.weight);
    const double seen = static_cast<double>(obs.spot_time) + static_cast<double>(obs.wait_time);
    o.availability =
        w + seen <= 0.0
            ? v.spot_availability
            : std::clamp((v.spot_availability * w + static_cast<double>(obs.spot_time)) / (w + seen), 0.01, 1.0);
    return o;
  }
  // Recorded zone: never the recording's own statistics (spot_availability, spot_mtbf: they include the future
  // of the window being replayed), only this run's record and the prior.
  const SpotPrior& prior = priors_[static_cast<std::size_t>(zone)];
  o.availability = history_.availability(zone, prior);
  o.rate = 1.0 / std::max(history_.mean_up(zone, prior), 1.0);
  return o;
}

double AdaptivePolicy::slack(const Observation& obs) const {
  return static_cast<double>(spare_off_spot(obs) - s_.margin);
}

namespace {
// The changeover d the automatic reserve and confirmation follow: the start-up of a lossless job. A job that can
// lose progress pays lost work as well at each preemption, which the rule does not model: it gets the d the former
// constants were chosen at, so those constants (0.15, 20 min), which its baselines check.
constexpr Millis kReferenceChangeover = 12 * kMillisPerMinute;  // 0.2 h
Millis switch_changeover(const Observation& obs) { return obs.lossless ? obs.job->startup : kReferenceChangeover; }
}  // namespace

double AdaptivePolicy::slack_reserve(const Observation& obs) const {
  const double fraction =
      s_.reserve >= 0.0
          ? s_.reserve
          : 0.15 * std::sqrt(static_cast<double>(switch_changeover(obs)) / static_cast<double>(kReferenceChangeover));
  return fraction * static_cast<double>(obs.remaining_work());
}

Millis AdaptivePolicy::confirm_time(const Observation& obs) const {
  if (s_.confirm >= 0) return s_.confirm;
  const Millis confirm = switch_changeover(obs) * 5 / 3;
  // Asked only at ticks, the policy sees a spell's age in whole ticks: a confirmation shorter than a tick would hold
  // the job on on-demand for a whole tick of available spot (8 changeovers at d = 72 s and 600 s ticks), far more
  // than the failed switch it guards against costs. So only the whole ticks that fit in 5/3 d are waited for.
  if (obs.decision_tick > 0) return confirm / obs.decision_tick * obs.decision_tick;
  return confirm;
}

SelectionDecision AdaptivePolicy::decide(const Observation& obs) {
  if (plans(obs)) {
    if (!planner_) planner_ = make_planner_();
    return planner_->decide(obs);
  }
  history_.observe(obs);  // bookkeeping of what this run has seen; decides nothing
  const Millis now = obs.now;
  const int od_zone = on_demand_zone_choice(obs);
  const auto on_demand = [&](Millis review_at) { return SelectionDecision::on_demand(od_zone, review_at); };
  if (committed_on_demand_) return on_demand(kNever);

  // 1. Safety net (shared with greedy and uniform progress), keeping `margin` of extra slack.
  const int spot_zone = cheapest_obtainable_spot_zone(obs);
  const SafetyNet net = safety_net(obs, spot_zone, s_.margin);
  if (auto imposed = imposed_decision(net, obs, od_zone, spot_zone, committed_on_demand_)) return *imposed;
  const Millis safety_review = net.review_at;
  prepare(obs);

  // 2. Preemption clusters (only when a preemption can lose work): on-demand for a cool-down that doubles.
  if (obs.preemptions > preemptions_seen_) {
    preemptions_seen_ = obs.preemptions;
    if (!obs.lossless && recent_preemption_count(obs) >= cluster_threshold(obs)) {
      fallback_until_ = obs.elapsed + std::min(s_.max_cooldown, s_.cooldown << std::min(fallbacks_, 20));
      ++fallbacks_;
    }
  }
  if (obs.elapsed < fallback_until_) {
    waiting_since_ = -1;
    return on_demand(std::min(safety_review, now + (fallback_until_ - obs.elapsed)));
  }

  // 3. Expected cost to finish on spot, per zone, against on-demand. Waiting for spot is free, so the cost counts
  // only billed time (work plus preemption overhead).
  const double remaining = static_cast<double>(std::max<Millis>(obs.remaining_work(), 1));
  const double od_cost = obs.zones[static_cast<std::size_t>(od_zone)].on_demand_price_per_hour * remaining;
  int best_obtainable = -1;
  bool worthwhile_anywhere = false;
  double best_obtainable_cost = 0.0;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    const double cost = v.spot_price_per_hour * remaining * preemption_overhead(obs, outlook(obs, z).rate);
    if (cost >= od_cost * (1.0 - s_.hysteresis)) continue;  // spot not worth it here
    worthwhile_anywhere = true;
    const bool current = obs.purchase == Purchase::kSpot && obs.zone == z;
    if (!v.spot_available && !current) continue;
    if (best_obtainable < 0 || cost < best_obtainable_cost) best_obtainable = z, best_obtainable_cost = cost;
  }
  if (!worthwhile_anywhere) {  // spot is not worth it anywhere: on-demand
    waiting_since_ = -1;
    return on_demand(std::min(safety_review, now + s_.review));
  }

  // 4. Spot whenever a worthwhile zone can be obtained.
  if (obs.purchase == Purchase::kSpot && (best_obtainable == obs.zone || best_obtainable < 0)) {
    return SelectionDecision::spot(obs.zone, safety_review);  // keep the running instance
  }
  if (best_obtainable >= 0) {
    if (obs.purchase == Purchase::kOnDemand && obs.has_deadline()) {
      // Leaving on-demand: only when the safety net says the job may be off on-demand (spare_off_spot() on
      // on-demand is measured as if the job left now), and while slack is scarce only once spot has held for
      // `confirm`, so that a short spell does not cost two changeovers of scarce slack.
      const double sigma = slack(obs);
      if (sigma <= 0.0) return on_demand(std::min(safety_review, now + s_.review));
      const Millis up_for = obs.elapsed - history_.zone(best_obtainable).since;
      const Millis confirm = confirm_time(obs);
      if (sigma <= slack_reserve(obs) && up_for < confirm) {
        return on_demand(std::min(safety_review, now + (confirm - up_for)));
      }
    }
    waiting_since_ = -1;
    last_spot_zone_ = best_obtainable;
    return SelectionDecision::spot(best_obtainable, safety_review);
  }
  return in_gap(obs, od_zone, safety_review);
}

// 5./6. No worthwhile spot can be obtained right now.
SelectionDecision AdaptivePolicy::in_gap(const Observation& obs, int od_zone, Millis safety_review) {
  const Millis now = obs.now;
  if (!obs.has_deadline()) {
    if (obs.purchase == Purchase::kOnDemand) return SelectionDecision::on_demand(od_zone, now + s_.review);
    if (waiting_since_ < 0) waiting_since_ = obs.elapsed;
    const Millis waited = obs.elapsed - waiting_since_;
    if (waited < s_.max_wait) return SelectionDecision::wait(now + (s_.max_wait - waited));
    waiting_since_ = -1;
    return SelectionDecision::on_demand(od_zone, now + s_.review);
  }
  const auto at = [now](double from_now) {
    return now + std::max<Millis>(kMillisPerSecond, static_cast<Millis>(std::ceil(from_now)));
  };
  // Filling: on-demand until spot returns (the engine wakes the policy then), never back to an idle wait.
  const SelectionDecision fill = SelectionDecision::on_demand(od_zone, std::min(safety_review, now + s_.review), true);
  if (obs.purchase == Purchase::kOnDemand) return fill;
  // Waiting lowers sigma at rate 1 and leaves the reserve unchanged: ask again when they meet.
  const double excess = slack(obs) - slack_reserve(obs);
  if (excess > 0.0) return SelectionDecision::wait(std::min(safety_review, at(excess)));
  // The gap began when the last zone seen obtainable dropped.
  Millis gap_since = 0;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) gap_since = std::max(gap_since, history_.zone(z).since);
  const Millis gap_age = obs.elapsed - gap_since;
  if (gap_age >= s_.patience) return fill;
  return SelectionDecision::wait(std::min(safety_review, now + (s_.patience - gap_age)));
}

void register_adaptive(PolicyRegistry& registry) {
  // The `planned` policy that this one plays in the Can't Be Late mode (its solved plans are the process's, shared
  // with `planned`: planned_policy.hpp). Its defaults but for where the run's belief starts: in the plentiful
  // regime with probability 0.2, not 0.5, so the plan keeps more slack until the run has seen its market. 0.2 was
  // the cheapest of 0 to 0.5 on windows no public harness uses (the Can't Be Late traces' later windows,
  // docs/policies.md#adaptive); in the event mode, where the rules play, it was dearer, so `planned` keeps 0.5.
  const auto make_planned = planned_policy_maker();
  registry.add(PolicyEntry<SelectionPolicy>{
      "adaptive",
      "spot whenever obtainable and worth it (preemption rate learned from this run, no look-ahead); in spot gaps "
      "waits while the slack exceeds a reserve for future changeovers, else fills the gap with on-demand until "
      "spot returns (leaving on-demand, while slack is scarce, only for spot that has held a while); on-demand "
      "for good at the last safe moment",
      "reserve=auto (slack kept per unit of remaining work; auto: 0.15 sqrt(d / 0.2 h), d the changeover), "
      "confirm=auto (5/3 d; asked at ticks, the whole ticks that fit in it), patience=0s, margin=0s, review=1h, "
      "hysteresis=0.1, max_wait=30m (no deadline), window=6h, cluster=auto (0: from the model and "
      "significance=0.01; or a count; only when progress can be lost), cooldown=2h, max_cooldown=24h; recorded "
      "zones' prior: prior_availability=0.5, prior_mtbf=2h, prior_weight=6h, or calibration=TRACE (a file or a shipped "
      "trace's name; its "
      "long-run statistics; where the plan decides, its model too); plan=auto (in the Can't Be Late mode, one zone, "
      "lossless progress and a deadline: the planned policy decides, its run's belief starting at start_belief=0.2, "
      "unless reserve, confirm, patience, margin, hysteresis or a prior_ parameter is given; 'off': these rules "
      "everywhere)",
      [make_planned](const PolicyParams& p) {
        AdaptiveSettings settings = AdaptiveSettings::from(p);
        // A calibration given to `adaptive` is the plan's too: in the Can't Be Late mode the plan decides, and a
        // recording of the user's own kind of instance is the model it should plan on (docs/policies.md#adaptive).
        std::string played = kAdaptivePlayedPlan;
        if (!settings.prior.calibration_path.empty()) played += ",calibration=" + settings.prior.calibration_path;
        auto planner = [make_planned, played] { return make_planned(PolicyParams::parse(played, "--policy")); };
        return std::make_unique<AdaptivePolicy>(std::move(settings), planner);
      }});
}

}  // namespace spotsim

#include "policies/adaptive_policy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "policies/checkpoint_math.hpp"
#include "policies/deadline_rules.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"
#include "traces/lifetime_distribution.hpp"

namespace spotsim {

AdaptiveSettings AdaptiveSettings::from(const PolicyParams& p) {
  AdaptiveSettings s;
  s.window = p.duration("window", s.window);
  s.cluster = p.integer("cluster", s.cluster, 0, 1000);
  s.significance = p.number("significance", s.significance, 1e-9, 0.5);
  s.cooldown = p.duration("cooldown", s.cooldown);
  s.max_cooldown = p.duration("max_cooldown", s.max_cooldown);
  s.margin = p.duration("margin", s.margin);
  s.review = std::max<Millis>(p.duration("review", s.review), kMillisPerMinute);
  s.hysteresis = p.number("hysteresis", s.hysteresis, 0.0, 0.9);
  s.max_wait = p.duration("max_wait", s.max_wait);
  s.prior_weight = p.duration("prior_weight", s.prior_weight);
  return s;
}

void AdaptivePolicy::reset() {
  committed_on_demand_ = false;
  fallback_until_ = 0;
  fallbacks_ = 0;
  preemptions_seen_ = 0;
  waiting_since_ = -1;
  last_spot_zone_ = 0;
}

int AdaptivePolicy::cluster_threshold(const Observation& obs) const {
  if (s_.cluster > 0) return s_.cluster;
  // k preemptions within the window need k fresh instances each dying within it: probability <= F(w)^k.
  // The smallest k with F(w)^k < significance is more than the preemption model explains.
  // The zone of the instance just preempted (the engine has released it by the time the policy is asked).
  const int zone = obs.zone >= 0 ? obs.zone : last_spot_zone_;
  const ZoneView& v = obs.zones[static_cast<std::size_t>(zone)];
  double dies_within = 0.0;
  if (v.lifetime) dies_within = v.lifetime->cdf(to_hours(s_.window));
  else if (v.spot_mtbf != kNever) dies_within = -std::expm1(-static_cast<double>(s_.window) / static_cast<double>(v.spot_mtbf));
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

double AdaptivePolicy::preemption_overhead(const Observation& obs, const ZoneView& zone) {
  const double rate = estimated_rate(obs, zone.spot_mtbf);
  if (rate <= 0.0) return 1.0;
  const auto d = static_cast<double>(obs.job->startup + (obs.lossless ? 0 : obs.job->restore));
  if (obs.lossless) return 1.0 + rate * d;
  const double delta = std::max(static_cast<double>(obs.job->checkpoint_write), 1.0);
  return expected_segmented_time(1.0, daly_interval(delta, 1.0 / rate), delta, d, rate);
}

double AdaptivePolicy::availability(const Observation& obs, const ZoneView& zone) const {
  // The trace's long-run fraction, updated by this run's own spot and waiting time.
  const auto w = static_cast<double>(s_.prior_weight);
  const double seen = static_cast<double>(obs.spot_time) + static_cast<double>(obs.wait_time);
  if (w + seen <= 0.0) return zone.spot_availability;
  return std::clamp((zone.spot_availability * w + static_cast<double>(obs.spot_time)) / (w + seen), 0.01, 1.0);
}

SelectionDecision AdaptivePolicy::decide(const Observation& obs) {
  const Millis now = obs.now;
  const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone : cheapest_on_demand_zone(obs);
  const auto on_demand = [&](Millis review_at) { return SelectionDecision::on_demand(od_zone, review_at); };
  if (committed_on_demand_) return on_demand(kNever);

  // 1. Safety net (shared with greedy and uniform progress), keeping `margin` of extra slack.
  const SafetyNet net = safety_net(obs, cheapest_obtainable_spot_zone(obs), s_.margin);
  if (net.verdict != SafetyNet::kFree) {
    committed_on_demand_ = net.verdict == SafetyNet::kCommit;
    if (net.verdict == SafetyNet::kTakeSpot) {
      return SelectionDecision::spot(obs.purchase == Purchase::kSpot ? obs.zone : cheapest_obtainable_spot_zone(obs));
    }
    return on_demand(kNever);
  }
  const Millis safety_review = net.review_at;

  // 2. Preemption clusters: fall back to on-demand for a cool-down that doubles on each repeat.
  if (obs.preemptions > preemptions_seen_) {
    preemptions_seen_ = obs.preemptions;
    if (recent_preemption_count(obs) >= cluster_threshold(obs)) {
      fallback_until_ = obs.elapsed + std::min(s_.max_cooldown, s_.cooldown << std::min(fallbacks_, 20));
      ++fallbacks_;
    }
  }
  if (obs.elapsed < fallback_until_) {
    waiting_since_ = -1;
    return on_demand(std::min(safety_review, now + (fallback_until_ - obs.elapsed)));
  }

  // 3. Expected cost to finish: the best spot zone (by expected cost, obtainable or not) against on-demand.
  const double remaining = static_cast<double>(std::max<Millis>(obs.remaining_work(), 1));
  const double od_cost = obs.zones[static_cast<std::size_t>(od_zone)].on_demand_price_per_hour * remaining;
  // Waiting for spot is free, so the cost counts only billed time (work plus preemption overhead); the pace
  // used for the deadline also counts the waiting (1 / availability).
  int best_obtainable = -1;
  double best_obtainable_cost = 0.0, best_factor = std::numeric_limits<double>::infinity();
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    const double overhead = preemption_overhead(obs, v);
    const double cost = v.spot_price_per_hour * remaining * overhead;
    if (cost >= od_cost * (1.0 - s_.hysteresis)) continue;  // spot not worth it here
    best_factor = std::min(best_factor, overhead / availability(obs, v));
    const bool current = obs.purchase == Purchase::kSpot && obs.zone == z;
    if (!v.spot_available && !current) continue;
    if (best_obtainable < 0 || cost < best_obtainable_cost) best_obtainable = z, best_obtainable_cost = cost;
  }
  if (obs.purchase == Purchase::kSpot && (best_obtainable == obs.zone || best_obtainable < 0)) {
    return SelectionDecision::spot(obs.zone, safety_review);  // keep the running instance
  }
  if (best_obtainable >= 0) {
    // Leaving on-demand costs a changeover: only when the deadline can absorb it and a possible return.
    // spare_off_spot() on on-demand is measured as if the job left now.
    const bool affordable = obs.purchase != Purchase::kOnDemand || !obs.has_deadline() ||
                            spare_off_spot(obs) - s_.margin > changeover(obs);
    if (affordable) {
      waiting_since_ = -1;
      last_spot_zone_ = best_obtainable;
      return SelectionDecision::spot(best_obtainable, safety_review);
    }
    return on_demand(std::min(safety_review, now + s_.review));
  }
  return without_spot(obs, od_zone, safety_review, best_factor);
}

// 4./5. No worthwhile spot can be obtained right now.
SelectionDecision AdaptivePolicy::without_spot(const Observation& obs, int od_zone, Millis safety_review,
                                               double factor) {
  const Millis now = obs.now;
  const auto on_demand = [&](Millis review_at) { return SelectionDecision::on_demand(od_zone, review_at); };
  if (!std::isfinite(factor)) {  // spot is not worth it anywhere: on-demand
    waiting_since_ = -1;
    return on_demand(std::min(safety_review, now + s_.review));
  }
  if (!obs.has_deadline()) {
    if (obs.purchase == Purchase::kOnDemand) return on_demand(now + s_.review);
    if (waiting_since_ < 0) waiting_since_ = obs.elapsed;
    const Millis waited = obs.elapsed - waiting_since_;
    if (waited < s_.max_wait) return SelectionDecision::wait(now + (s_.max_wait - waited));
    waiting_since_ = -1;
    return on_demand(now + s_.review);
  }
  // Deficit of the expected spot pace against the time left (one changeover and the margin kept aside).
  const Millis d = changeover(obs);
  const double time_left = static_cast<double>(obs.time_to_deadline() - d - s_.margin);
  const double deficit = static_cast<double>(obs.remaining_work()) * factor - time_left;
  const double hysteresis = 2.0 * static_cast<double>(d);
  const auto at = [now](double from_now) {
    return now + std::max<Millis>(kMillisPerSecond, static_cast<Millis>(std::ceil(from_now)));
  };
  if (obs.purchase == Purchase::kOnDemand) {
    // On on-demand the deficit falls at rate factor - 1 per unit of time; leave once it is below -2d.
    if (deficit > -hysteresis) {
      const double until = factor > 1.0 ? (deficit + hysteresis) / (factor - 1.0) : static_cast<double>(s_.review);
      return on_demand(std::min({safety_review, at(until), now + s_.review}));
    }
    return SelectionDecision::wait(std::min(safety_review, at(-deficit)));
  }
  if (deficit > 0.0) return on_demand(std::min(safety_review, now + s_.review));
  // Waiting raises the deficit at rate 1: ask again when it would turn positive.
  return SelectionDecision::wait(std::min(safety_review, at(-deficit)));
}

void register_adaptive(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "adaptive",
      "spot while its expected cost-to-finish beats on-demand (learned preemption rate, availability, renewal "
      "model); on-demand only to fill spot gaps the deadline cannot absorb, during preemption clusters, and "
      "at the last safe moment",
      "window=6h, cluster=auto (0: from the model and significance=0.01; or a count), cooldown=2h, "
      "max_cooldown=24h, margin=0s, review=1h, hysteresis=0.1, max_wait=30m, prior_weight=6h",
      [](const PolicyParams& p) { return std::make_unique<AdaptivePolicy>(AdaptiveSettings::from(p)); }});
}

}  // namespace spotsim

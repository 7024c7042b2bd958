#include "policies/adaptive_policy.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "policies/checkpoint_math.hpp"
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

Millis AdaptivePolicy::restart_overhead(const Observation& obs) const {
  return obs.job->startup + (obs.committed > 0 ? obs.job->restore : 0);
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

double AdaptivePolicy::spot_time_factor(const Observation& obs, double rate_per_ms) {
  const auto delta = static_cast<double>(obs.job->checkpoint_write);
  const auto restart = static_cast<double>(obs.job->startup + obs.job->restore);
  if (rate_per_ms <= 0.0) return 1.0;
  const double tau = daly_interval(std::max(delta, 1.0), 1.0 / rate_per_ms);
  return expected_segmented_time(1.0, tau, delta, restart, rate_per_ms);
}

SelectionDecision AdaptivePolicy::decide(const Observation& obs) {
  const Millis now = obs.now;
  const int od_zone = obs.purchase == Purchase::kOnDemand ? obs.zone : cheapest_on_demand_zone(obs);
  const auto on_demand = [&](Millis review_at) { return SelectionDecision::on_demand(od_zone, review_at); };
  if (committed_on_demand_) return on_demand(kNever);

  // 1. Deadline safety net. Slack only shrinks while the job makes no progress, so asking again when it would
  //    reach the margin is enough to never miss the last safe moment.
  Millis review_at = kNever;
  if (obs.has_deadline()) {
    const Millis switch_cost =
        obs.purchase == Purchase::kOnDemand ? 0 : restart_overhead(obs) + obs.job->checkpoint_write;
    const Millis slack = obs.time_to_deadline() - (obs.remaining_work() + switch_cost);
    if (slack <= s_.margin) {
      committed_on_demand_ = true;
      return on_demand(kNever);
    }
    review_at = now + (slack - s_.margin);
  }
  const Millis periodic_review = std::min(review_at, now + s_.review);

  // 2. Preemption clusters: fall back to on-demand for a cool-down that doubles on each repeat.
  if (obs.preemptions > preemptions_seen_) {
    preemptions_seen_ = obs.preemptions;
    if (recent_preemption_count(obs) >= cluster_threshold(obs)) {
      const Millis cooldown = std::min(s_.max_cooldown, s_.cooldown << std::min(fallbacks_, 20));
      fallback_until_ = obs.elapsed + cooldown;
      ++fallbacks_;
    }
  }
  if (obs.elapsed < fallback_until_) {
    waiting_since_ = -1;
    return on_demand(std::min(review_at, now + (fallback_until_ - obs.elapsed)));
  }

  // 3. Expected cost to finish: the best obtainable spot zone against on-demand.
  const double remaining = static_cast<double>(std::max<Millis>(obs.remaining_work(), 1));
  const double od_restart = obs.purchase == Purchase::kOnDemand ? 0.0 : static_cast<double>(restart_overhead(obs));
  const double od_cost = obs.zones[static_cast<std::size_t>(od_zone)].on_demand_price_per_hour * (remaining + od_restart);
  int best_zone = -1;
  double best_cost = 0.0;
  for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
    const ZoneView& v = obs.zones[static_cast<std::size_t>(z)];
    const bool current = obs.purchase == Purchase::kSpot && obs.zone == z;
    if (!v.spot_available && !current) continue;
    const double factor = spot_time_factor(obs, estimated_rate(obs, v.spot_mtbf));
    const double switch_time = current ? 0.0 : static_cast<double>(restart_overhead(obs));
    const double cost = v.spot_price_per_hour * (remaining * factor + switch_time);
    if (best_zone < 0 || cost < best_cost) best_zone = z, best_cost = cost;
  }
  if (best_zone >= 0) {
    waiting_since_ = -1;
    const double threshold = obs.purchase == Purchase::kOnDemand ? 1.0 - s_.hysteresis : 1.0;
    if (best_cost < od_cost * threshold) {
      last_spot_zone_ = best_zone;
      return SelectionDecision::spot(best_zone, review_at);
    }
    return on_demand(periodic_review);
  }

  // 4. No spot obtainable: wait while the deadline (or, without one, max_wait) allows, else on-demand.
  if (obs.purchase == Purchase::kOnDemand) return on_demand(periodic_review);
  if (obs.has_deadline()) return SelectionDecision::wait(periodic_review);
  if (waiting_since_ < 0) waiting_since_ = obs.elapsed;
  const Millis waited = obs.elapsed - waiting_since_;
  if (waited < s_.max_wait) return SelectionDecision::wait(now + (s_.max_wait - waited));
  waiting_since_ = -1;
  return on_demand(periodic_review);
}

void register_adaptive(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "adaptive",
      "spot while its expected cost-to-finish (learned preemption rate, Daly renewal model) beats on-demand; "
      "on-demand during preemption clusters and when the deadline needs it",
      "window=6h, cluster=auto (0: from the model and significance=0.01; or a count), cooldown=2h, max_cooldown=24h, margin=1h, review=1h, hysteresis=0.1, max_wait=30m",
      [](const PolicyParams& p) { return std::make_unique<AdaptivePolicy>(AdaptiveSettings::from(p)); }});
}

}  // namespace spotsim

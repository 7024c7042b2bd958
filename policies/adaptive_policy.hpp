#pragma once
// spotsim's own selection policy (first version; see docs/policies.md).
//
//  1. Deadline safety net: once the slack left (time to deadline minus the on-demand time still needed) falls
//     below `margin`, commit to on-demand for good.
//  2. Preemption clusters: more preemptions within `window` than the preemption model explains (k with
//     F(window)^k < significance, or an explicit `cluster` count) mean spot is in a bad spell (the "infinite
//     preemption loop"): fall back to on-demand for `cooldown`, doubling on each repeat (hysteresis).
//  3. Otherwise compare the expected cost to finish on spot with on-demand. The spot preemption rate is learned
//     online as a Gamma-Poisson posterior mean, (1 + preemptions) / (M_prior + spot time), with the zone's mean
//     time between preemptions M_prior as the prior; the expected spot wall time uses Daly's renewal formula at
//     the optimal checkpoint interval (lost work, restarts and checkpoint overhead). Spot must win by
//     `hysteresis` to move a job off on-demand.
//  4. No spot obtainable: wait while the deadline slack allows (re-checking every `review`), or without a
//     deadline up to `max_wait`, then on-demand.
#include "policies/policy_params.hpp"
#include "sim/policy_interfaces.hpp"

namespace spotsim {

struct AdaptiveSettings {
  Millis window = 6 * kMillisPerHour;
  int cluster = 0;             // preemptions within `window` that make a cluster; 0 = from the model (below)
  double significance = 0.01;  // auto threshold: fewer than this chance that the model alone explains it
  Millis cooldown = 2 * kMillisPerHour;
  Millis max_cooldown = 24 * kMillisPerHour;
  Millis margin = kMillisPerHour;  // extra slack kept on top of the restart overhead
  Millis review = kMillisPerHour;  // how often to reconsider while on on-demand or waiting
  double hysteresis = 0.10;        // spot must be this much cheaper to leave on-demand
  Millis max_wait = 30 * kMillisPerMinute;  // without a deadline: wait this long for spot, then on-demand

  static AdaptiveSettings from(const PolicyParams& params);
};

class AdaptivePolicy final : public SelectionPolicy {
 public:
  explicit AdaptivePolicy(const AdaptiveSettings& settings) : s_(settings) {}
  void reset() override;
  SelectionDecision decide(const Observation& obs) override;

  // Expected wall time per unit of work on spot in a zone, given the estimated preemption rate (per ms).
  static double spot_time_factor(const Observation& obs, double rate_per_ms);
  // Posterior-mean preemption rate (per ms) for a zone whose prior mean time between preemptions is `prior`.
  static double estimated_rate(const Observation& obs, Millis prior);

 private:
  Millis restart_overhead(const Observation& obs) const;
  int recent_preemption_count(const Observation& obs) const;
  int cluster_threshold(const Observation& obs) const;

  AdaptiveSettings s_;
  bool committed_on_demand_ = false;
  Millis fallback_until_ = 0;  // elapsed time until which the job stays on on-demand
  int fallbacks_ = 0;
  int preemptions_seen_ = 0;
  Millis waiting_since_ = -1;  // elapsed time when the current wait for spot began; -1 = not waiting
  int last_spot_zone_ = 0;     // where the job last ran on spot
};

}  // namespace spotsim

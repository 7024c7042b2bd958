#pragma once
// spotsim's own selection policy (docs/policies.md#adaptive).
//
//  1. Safety net: once the slack left if the job moved to on-demand now falls below one more changeover (plus
//     `margin`), commit to on-demand for good (greedy's last safe moment).
//  2. Preemption clusters: more preemptions within `window` than the preemption model explains (k with
//     F(window)^k < significance, or an explicit `cluster` count) mean spot is in a bad spell (the "infinite
//     preemption loop"): fall back to on-demand for `cooldown`, doubling on each repeat.
//  3. Expected pace on spot: the wall time spot needs per unit of work, f = (1/a) x g(lambda), where a is the
//     zone's availability (the trace's long-run fraction as a prior, updated by this run's waiting) and g the
//     renewal-theory overhead of preemptions at the learned rate lambda = (1 + preemptions) / (M + spot time)
//     (Gamma-Poisson posterior mean with the zone's mean time between preemptions M as prior): 1 + lambda d when
//     progress is lossless, else Daly's expected-time factor at the optimal checkpoint interval (lost work,
//     restarts, checkpoint writes). Spot is used only where its expected cost to finish (billed time: work x g,
//     waiting is free) beats on-demand.
//  4. Deadline pacing: the deficit is remaining work x f minus the time left (less one changeover and `margin`).
//     When spot cannot be obtained, the job waits while the deficit is negative (spot alone is expected to make
//     it) and fills the gap with on-demand while it is positive; it leaves on-demand again once the deficit is
//     below -2d (hysteresis) or spot returns. Unlike greedy it never gives up spot early; unlike uniform progress
//     it buys on-demand only when the expected spot pace cannot meet the deadline, and only during gaps.
//  5. Without a deadline: wait for spot up to `max_wait`, then on-demand until spot returns.
#include "policies/policy_params.hpp"
#include "sim/policy_interfaces.hpp"

namespace spotsim {

struct AdaptiveSettings {
  Millis window = 6 * kMillisPerHour;
  int cluster = 0;             // preemptions within `window` that make a cluster; 0 = from the model (below)
  double significance = 0.01;  // auto threshold: fewer than this chance that the model alone explains it
  Millis cooldown = 2 * kMillisPerHour;
  Millis max_cooldown = 24 * kMillisPerHour;
  Millis margin = 0;                        // extra slack kept by the safety net and the pacing
  Millis review = kMillisPerHour;           // longest time between reconsiderations on on-demand or waiting
  double hysteresis = 0.10;                 // spot must be this much cheaper to be worth it at all
  Millis max_wait = 30 * kMillisPerMinute;  // without a deadline: wait this long for spot, then on-demand
  Millis prior_weight = 6 * kMillisPerHour;  // how much observed time the trace's availability prior is worth

  static AdaptiveSettings from(const PolicyParams& params);
};

class AdaptivePolicy final : public SelectionPolicy {
 public:
  explicit AdaptivePolicy(const AdaptiveSettings& settings) : s_(settings) {}
  void reset() override;
  SelectionDecision decide(const Observation& obs) override;

  // Posterior-mean preemption rate (per ms of spot time) for a zone whose prior mean time between preemptions
  // is `prior`.
  static double estimated_rate(const Observation& obs, Millis prior);
  // Billed spot time per unit of work in a zone: lost work, restarts and checkpoints at the learned rate.
  static double preemption_overhead(const Observation& obs, const ZoneView& zone);
  // Expected fraction of time spot can be obtained in a zone (prior from the trace, updated by this run).
  double availability(const Observation& obs, const ZoneView& zone) const;

 private:
  int recent_preemption_count(const Observation& obs) const;
  int cluster_threshold(const Observation& obs) const;
  SelectionDecision without_spot(const Observation& obs, int od_zone, Millis safety_review, double factor);

  AdaptiveSettings s_;
  bool committed_on_demand_ = false;
  Millis fallback_until_ = 0;  // elapsed time until which the job stays on on-demand
  int fallbacks_ = 0;
  int preemptions_seen_ = 0;
  Millis waiting_since_ = -1;  // elapsed time when the current wait for spot began; -1 = not waiting
  int last_spot_zone_ = 0;     // where the job last ran on spot
};

}  // namespace spotsim

#pragma once
// spotsim's own selection policy (docs/policies.md#adaptive; experiments/adaptive/README.md). It decides from
// what is known at decision time only: the job's state, the current market, and what this run has seen so far.
//
//  1. Safety net (shared, policies/deadline_rules.hpp): once the slack left if the job moved to on-demand now falls
//     below one more changeover (plus `margin`), commit to on-demand for good.
//  2. Preemption clusters, when progress can be lost: more preemptions within `window` than the preemption model
//     explains (k with F(window)^k < significance, or an explicit `cluster` count) mean spot is in a bad spell:
//     fall back to on-demand for `cooldown`, doubling on each repeat. With lossless progress a preemption costs
//     only a changeover, which step 3 prices in, so the rule is off.
//  3. Is spot worth it? Per zone, the expected cost to finish on spot (spot price x remaining work x g, g the
//     renewal-theory overhead of preemptions at rate lambda: 1 + lambda d when lossless, else Daly's expected-time
//     factor) must beat on-demand by `hysteresis`. lambda comes from the zone's lifetime model when it has one
//     (synthetic, known by construction), else from this run's own record of the zone (SpotHistory) and a prior
//     that never comes from the recording being replayed (adaptive_prior.hpp).
//  4. Spot whenever a worthwhile zone can be obtained: a running instance is kept; an idle job takes it; a job on
//     on-demand leaves when the safety net says it is safe (spare_off_spot() > margin) and, while the slack is
//     scarce (below the reserve, step 5), only once spot has held for `confirm` (many spells are shorter than a
//     changeover; one that has lasted is likely to last: the spell lengths have a decreasing hazard).
//  5. Spot gaps, with a deadline. The slack sigma (spare_off_spot() less `margin`) is what waiting and changeovers
//     may still consume. The job keeps a reserve R = `reserve` x remaining work for the changeovers that using the
//     remaining spot spells will cost. While sigma > R it waits (greedy: waiting is free, and spot may return);
//     once sigma <= R it fills the gap with on-demand (after `patience`) and stays there until spot returns.
//     On-demand thus buys only gap time, never time spot could have covered, and without the churn of
//     uniform progress (on-demand is never left for an idle wait).
//  6. Without a deadline: wait for spot up to `max_wait`, then on-demand until spot returns.
//
// In the Can't Be Late mode (decision ticks, lossless progress, a deadline, one zone), with plan=auto (the default),
// the `planned` policy decides instead (planned_policy.cpp): there the reserve and the confirmation of steps 4-5
// follow from a plan on d, the slack, the prices and the spells the run has seen, which was cheaper than these
// rules on the windows no public harness uses (docs/policies.md#adaptive). plan=off keeps the rules everywhere, and
// so does giving any of the rules' slack parameters (reserve, confirm, patience, margin), which the plan has none of.
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "model/policy_interfaces.hpp"
#include "policies/adaptive_prior.hpp"
#include "policies/policy_params.hpp"
#include "policies/spot_history.hpp"

namespace spotsim {

// The `planned` policy that `adaptive` (plan=auto) plays in the Can't Be Late mode (adaptive_policy.cpp says why
// its start belief differs from planned's default).
inline constexpr const char* kAdaptivePlayedPlan = "planned:start_belief=0.2";

struct AdaptiveSettings {
  Millis window = 6 * kMillisPerHour;
  int cluster = 0;             // preemptions within `window` that make a cluster; 0 = from the model (below)
  double significance = 0.01;  // auto threshold: fewer than this chance that the model alone explains it
  Millis cooldown = 2 * kMillisPerHour;
  Millis max_cooldown = 24 * kMillisPerHour;
  Millis margin = 0;                        // extra slack kept by the safety net and the gap rule
  Millis review = kMillisPerHour;           // longest time between reconsiderations on on-demand or waiting
  double hysteresis = 0.10;                 // spot must be this much cheaper to be worth it at all
  Millis max_wait = 30 * kMillisPerMinute;  // without a deadline: wait this long for spot, then on-demand
  // Slack kept for changeovers, per unit of remaining work, and how long spot must have held before a job short of
  // slack leaves on-demand for it. Negative (the default): from a lossless job's changeover d (its start-up),
  // reserve = 0.15 sqrt(d / 0.2 h) and confirm = 5/3 d: the former constants at the d = 0.2 h they were chosen at,
  // and at other d what the 2023 recording campaign (no public harness's data) favoured
  // (experiments/adaptive/README.md#changeover). A job that can lose progress keeps the former constants.
  double reserve = -1.0;
  Millis confirm = -1;
  Millis patience = 0;  // slack scarce: wait this long in a gap before filling it
  bool plan = true;     // plan=auto and no slack parameter given: `planned` decides in the Can't Be Late mode (header)
  AdaptivePriorSettings prior;  // recorded zones: prior of availability and time between drops

  // calibration= traces are read once per process (CalibrationCache::process_wide).
  static AdaptiveSettings from(const PolicyParams& params);
};

class AdaptivePolicy final : public SelectionPolicy {
 public:
  // `planner` makes the `planned` policy this one plays in the Can't Be Late mode (with plan=auto); empty: never.
  explicit AdaptivePolicy(AdaptiveSettings settings,
                          std::function<std::unique_ptr<SelectionPolicy>()> planner = nullptr)
      : s_(std::move(settings)), make_planner_(std::move(planner)) {}
  void reset() override;
  SelectionDecision decide(const Observation& obs) override;

  // What the policy expects of a zone's spot market from here on.
  struct Outlook {
    double availability = 1.0;  // fraction of time spot can be obtained
    double rate = 0.0;          // preemptions per ms held
  };
  Outlook outlook(const Observation& obs, int zone) const;
  // Billed spot time per unit of work at preemption rate `rate` (per ms): lost work, restarts and checkpoints.
  static double preemption_overhead(const Observation& obs, double rate);
  // Posterior-mean preemption rate (per ms of spot time) under a lifetime model whose mean time between
  // preemptions is `prior`.
  static double estimated_rate(const Observation& obs, Millis prior);
  // What this run has seen of each zone (for tests and diagnostics).
  const SpotHistory& history() const { return history_; }

 private:
  void prepare(const Observation& obs);
  int recent_preemption_count(const Observation& obs) const;
  int cluster_threshold(const Observation& obs) const;
  // Slack beyond the safety net's own margin and `margin`: what waiting and changeovers may still consume.
  double slack(const Observation& obs) const;
  double slack_reserve(const Observation& obs) const;
  Millis confirm_time(const Observation& obs) const;
  SelectionDecision in_gap(const Observation& obs, int od_zone, Millis safety_review);

  // Whether the plan decides this run (plan=auto, the Can't Be Late mode: ticks, lossless progress, a deadline, one
  // zone); the same for every decision of a run.
  bool plans(const Observation& obs) const;

  AdaptiveSettings s_;
  std::function<std::unique_ptr<SelectionPolicy>()> make_planner_;
  std::unique_ptr<SelectionPolicy> planner_;  // made on the first run the plan decides, reset with this policy
  std::vector<SpotPrior> priors_;             // per zone, for the job's node count (set up on the first decision)
  int priors_nodes_ = 0;
  SpotHistory history_;
  bool committed_on_demand_ = false;
  Millis fallback_until_ = 0;  // elapsed time until which the job stays on on-demand
  int fallbacks_ = 0;
  int preemptions_seen_ = 0;
  Millis waiting_since_ = -1;  // elapsed time when the current wait for spot began; -1 = not waiting
  int last_spot_zone_ = 0;     // where the job last ran on spot
};

}  // namespace spotsim

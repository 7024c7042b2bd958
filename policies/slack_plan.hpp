#pragma once
// The plan of the `planned` policy (docs/policies.md#planned): the cost-minimising way to spend a job's slack on a
// semi-Markov model of spot availability, by backward induction over decision steps.
//
// Time is cut into steps of length g. The slack s = time left - work left is counted in bins of g / K. At each step
// the job, holding nothing, spot or on-demand, with spot up (or down) for a spell of age a steps (a < A; older
// spells count as A - 1), chooses to wait (s falls by one step: K bins), run spot (only when up) or run on-demand;
// starting what it does not hold costs the changeover d (D bins, rounded up, so the plan never counts on less than
// the real d) and a running instance keeps s. A spell of age a lasts another step with probability stay_up[a]
// (stay_down[a] for a gap); a spot instance whose spot goes is lost. A step costs the price of what runs in it. The
// job is done once s reaches the time left (no work left). Below `commit_bins` the shared safety net takes over
// (on-demand for all the work left); a state from which the deadline cannot be met costs kInfeasible. Slack never
// grows, so only s up to the slack at planning time is solved. With `on_demand_until_spot` a job on on-demand may
// only keep it or take spot (never wait), and the plan is the cheapest under that rule.
//
// With two regimes (stay_up_2 / stay_down_2 given, `belief_points` B > 1) the market is in one of them, which the job
// does not know: the state also carries its belief b = P(regime 2) on a grid of B points (0, 1/(B-1), ..., 1). A
// step's spell continues with probability b stay_2[a] + (1 - b) stay[a], and what spot does moves the belief by
// Bayes (a spell that lasts favours the regime in which it lasts more likely); between grid points the value is
// interpolated linearly. The slack a run keeps is then worth what it is worth in either regime, weighted by how
// likely each is given what the run has seen (a partially observed plan, solved exactly on the grid).
#include <cstdint>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

struct SlackPlanInput {
  int steps = 0;            // decision steps from now to the deadline
  int slack_bins = 0;       // slack now, in bins (states 0..slack_bins are solved)
  int bins_per_step = 1;    // K
  int changeover_bins = 0;  // D
  int commit_bins = 0;      // 0: no safety net below the plan
  double spot_cost_per_step = 0.0;
  double on_demand_cost_per_step = 0.0;
  std::vector<double> stay_up;      // [a], a = 0..A-1
  std::vector<double> stay_down;    // [a], the same length
  std::vector<double> stay_up_2;    // [a]: the second regime's; empty with one regime
  std::vector<double> stay_down_2;  // [a]
  int belief_points = 1;            // B: 1 with one regime
  // On-demand is left only for spot, never to wait: the plan's ages stop at A - 1, so a gap of days looks like one
  // of A - 1 steps, and leaving on-demand to wait is a bet on a return that such a gap makes unlikely.
  bool on_demand_until_spot = false;

  bool operator==(const SlackPlanInput&) const = default;
};

enum class PlanAction : std::uint8_t { kWait, kSpot, kOnDemand };
enum class PlanHeld : std::uint8_t { kNone, kSpot, kOnDemand };

class SlackPlan {
 public:
  static constexpr double kInfeasible = 1e15;

  // Solves every state from step 0 (now) to the deadline. Reuses its storage.
  void solve(const SlackPlanInput& in);
  bool solved() const { return solved_; }
  const SlackPlanInput& input() const { return in_; }
  // The action at `step` (0 = when solved) for what the job holds, whether spot is up, the age of that spell in
  // steps (clamped to the last age) and the slack in bins (clamped to the solved range).
  PlanAction action(int step, PlanHeld held, bool spot_up, int age, int slack_bins, double belief = 0.0) const;
  // Expected cost to finish from a state at step 0 (kInfeasible when the deadline cannot be met).
  double expected_cost(PlanHeld held, bool spot_up, int age, int slack_bins, double belief = 0.0) const;
  // The belief in regime 2 after spot, up (or down) for a spell of `age` steps, stayed (or turned) for a step,
  // from `belief` (Bayes on the two regimes' stay probabilities).
  double next_belief(double belief, bool spot_up, int age, bool stayed) const;
  // Bytes the action table of `in` needs (fit_plan_table keeps it within a budget): an action is 2 bits, four to a
  // byte, so a step's states take a quarter of their count in bytes.
  static double table_bytes(const SlackPlanInput& in);

 private:
  std::size_t state(int held, int x, int s, int j = 0) const {
    return ((static_cast<std::size_t>(held) * static_cast<std::size_t>(states_) + static_cast<std::size_t>(x)) *
                width_ +
            static_cast<std::size_t>(s)) *
               static_cast<std::size_t>(beliefs_) +
           static_cast<std::size_t>(j);
  }
  void solve_with_belief();
  // Every state's cheapest action and its value at step t, from the expectations over the next step.
  void choose_step(int t);
  int belief_index(double belief) const;
  int availability_state(bool up, int age) const;
  // Availability state x: whether spot is up, the spell's age, and the state a step later if the spell goes on (one
  // step older, the last age pooling older spells) or turns (a new spell of age 0).
  struct SpellStep {
    bool up;
    int age;
    int same;
    int turned;
  };
  SpellStep spell_step(int x) const;

  SlackPlanInput in_;
  bool solved_ = false;
  int ages_ = 1;
  int states_ = 2;  // 2 A: up for a = 0..A-1, then down for a = 0..A-1
  int beliefs_ = 1;
  std::size_t width_ = 0;
  std::vector<std::uint8_t> actions_;                    // [step][held][x][s][belief], 2 bits each, four per byte
  std::vector<std::uint8_t> step_actions_;               // one step's actions, a byte each, before they are packed
  std::size_t packed_layer_ = 0;                         // bytes of actions_ per step
  std::vector<double> value_, next_;                     // [held][x][s] at the current and the next step
  std::vector<double> wait_next_, spot_next_, od_next_;  // [x][s]: expectations over the next step's state
};

// The finest layout of a plan from now to the deadline (`time_left`, with `slack` of it to spare, decisions every
// `step`) whose table fits `budget_bytes`: slack bins per step from `max_bins` down to 1, then, where even one bin
// per step is too many, plan steps of 2, 3, ... decision steps. Sets in.steps, in.slack_bins and in.bins_per_step;
// the table's other factors (spell ages, any belief grid) are what `in` already holds. Returns the plan step in
// decision steps.
int fit_plan_table(SlackPlanInput& in, Millis time_left, Millis slack, Millis step, int max_bins, double budget_bytes);

}  // namespace spotsim

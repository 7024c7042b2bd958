#include "policies/slack_plan.hpp"

#include <algorithm>
#include <cmath>

namespace spotsim {

namespace {
constexpr int kNone = static_cast<int>(PlanHeld::kNone);
constexpr int kSpotHeld = static_cast<int>(PlanHeld::kSpot);
constexpr int kOdHeld = static_cast<int>(PlanHeld::kOnDemand);

struct Choice {
  double value;
  PlanAction action;
};

// One state's cheapest action at a step, and its expected cost: `wait_e(s)`, `spot_e(s)` and `od_e(s)` give the
// expected cost from the next step after waiting, running spot or running on-demand, with slack s then.
template <class Wait, class Spot, class Od>
Choice choose(const SlackPlanInput& in, int held, bool up, int s, long long done_from, Wait wait_e, Spot spot_e,
              Od od_e) {
  const int k = in.bins_per_step;
  const int d = in.changeover_bins;
  if (s >= done_from) {  // no work left: done, at no cost
    return {0.0, held == kNone ? PlanAction::kWait : held == kSpotHeld ? PlanAction::kSpot : PlanAction::kOnDemand};
  }
  if (s < in.commit_bins) {  // the safety net's: on-demand for all the work left
    return {in.on_demand_cost_per_step * static_cast<double>(done_from - s) / k, PlanAction::kOnDemand};
  }
  const auto sum = [](double cost, double rest) { return std::min(cost + rest, SlackPlan::kInfeasible); };
  // Ties go to what the job holds (no needless changeover), then to spot (progress now, at spot's price), then to
  // waiting. A state the plan cannot finish from goes to on-demand: with the plan's rounding (slack down,
  // changeover up) that may be what makes it infeasible, and on-demand now is the job's best chance.
  Choice best{SlackPlan::kInfeasible, PlanAction::kOnDemand};
  const auto consider = [&](double v, PlanAction a, bool holds) {
    if (v < best.value || (holds && v <= best.value && v < SlackPlan::kInfeasible)) best = {v, a};
  };
  if (up) {
    const int from = held == kSpotHeld ? s : s - d;
    consider(from >= 0 ? sum(in.spot_cost_per_step, spot_e(from)) : SlackPlan::kInfeasible, PlanAction::kSpot,
             held == kSpotHeld);
  }
  if (!(in.on_demand_until_spot && held == kOdHeld)) {
    consider(s >= k ? wait_e(s - k) : SlackPlan::kInfeasible, PlanAction::kWait, false);
  }
  const int from = held == kOdHeld ? s : s - d;
  consider(from >= 0 ? sum(in.on_demand_cost_per_step, od_e(from)) : SlackPlan::kInfeasible, PlanAction::kOnDemand,
           held == kOdHeld);
  return best;
}

// choose() for every state of one row at a step: what the job holds, one availability state, every slack s in
// [0, width) and belief point j in [0, B), flattened as s B + j in `value` and `act` and in the row's expectations
// (`wait_e`, `spot_e`, `od_e`). Where every option is open (below the deadline's end of work, above the safety
// net's margin, slack for a changeover and a step of waiting) the same choice is written as a loop over the row
// without calls or index arithmetic, which the compiler vectorises: most of the solve's time is here.
void choose_row(const SlackPlanInput& in, int held, bool up, long long done_from, std::size_t width, int B,
                const double* wait_e, const double* spot_e, const double* od_e, double* value, std::uint8_t* act) {
  const long long n = static_cast<long long>(width);
  const long long open_from = std::max<long long>({in.commit_bins, in.changeover_bins, in.bins_per_step});
  const long long open_to = std::min(n, done_from);
  const auto scalar = [&](long long s) {
    for (int j = 0; j < B; ++j) {
      const auto e = [j, B](const double* v) {
        return [v, j, B](int from) { return v[static_cast<std::size_t>(from) * static_cast<std::size_t>(B) + j]; };
      };
      const Choice c = choose(in, held, up, static_cast<int>(s), done_from, e(wait_e), e(spot_e), e(od_e));
      const std::size_t at = static_cast<std::size_t>(s) * static_cast<std::size_t>(B) + static_cast<std::size_t>(j);
      value[at] = c.value;
      act[at] = static_cast<std::uint8_t>(c.action);
    }
  };
  for (long long s = 0; s < std::min(open_from, n); ++s) scalar(s);
  if (open_from < open_to) {
    const auto b = static_cast<std::ptrdiff_t>(B);
    const std::ptrdiff_t spot_shift = held == kSpotHeld ? 0 : -in.changeover_bins * b;
    const std::ptrdiff_t od_shift = held == kOdHeld ? 0 : -in.changeover_bins * b;
    const std::ptrdiff_t wait_shift = -static_cast<std::ptrdiff_t>(in.bins_per_step) * b;
    const bool may_wait = !(in.on_demand_until_spot && held == kOdHeld);
    const bool holds_od = held == kOdHeld;
    const double spot_cost = in.spot_cost_per_step;
    const double od_cost = in.on_demand_cost_per_step;
    constexpr double kInf = SlackPlan::kInfeasible;
    constexpr auto kSpot = static_cast<std::uint8_t>(PlanAction::kSpot);
    constexpr auto kWait = static_cast<std::uint8_t>(PlanAction::kWait);
    constexpr auto kOd = static_cast<std::uint8_t>(PlanAction::kOnDemand);
    const std::ptrdiff_t end = static_cast<std::ptrdiff_t>(open_to) * b;
    // The order and the ties of choose(): spot (when up), then waiting, then on-demand, which wins a tie when held.
    for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(open_from) * b; i < end; ++i) {
      double best = kInf;
      std::uint8_t a = kOd;
      if (up) {
        const double v = std::min(spot_cost + spot_e[i + spot_shift], kInf);
        a = v < kInf ? kSpot : a;
        best = v;
      }
      if (may_wait) {
        const double v = wait_e[i + wait_shift];
        a = v < best ? kWait : a;
        best = std::min(v, best);
      }
      const double v = std::min(od_cost + od_e[i + od_shift], kInf);
      const bool take = v < best || (holds_od && v <= best && v < kInf);
      a = take ? kOd : a;
      best = take ? v : best;
      value[i] = best;
      act[i] = a;
    }
  }
  for (long long s = std::max(open_from, open_to); s < n; ++s) scalar(s);
}

}  // namespace

double SlackPlan::table_bytes(const SlackPlanInput& in) {
  const bool two = !in.stay_up_2.empty() && in.belief_points > 1;
  const double per_step = 6.0 * static_cast<double>(in.stay_up.size()) *
                          (static_cast<double>(std::max(in.slack_bins, 0)) + 1.0) * (two ? in.belief_points : 1);
  return static_cast<double>(std::max(in.steps, 0)) * std::ceil(per_step / 4.0);
}

int fit_plan_table(SlackPlanInput& in, Millis time_left, Millis slack, Millis step, int max_bins, double budget_bytes) {
  const auto fits = [&](int multiple, int bins) {
    const Millis length = step * multiple;
    in.steps = static_cast<int>(std::max<Millis>((time_left + length - 1) / length, 1));
    in.slack_bins = static_cast<int>(static_cast<double>(slack) * bins / static_cast<double>(length));
    in.bins_per_step = bins;
    return SlackPlan::table_bytes(in) <= budget_bytes;
  };
  // Fewer slack bins first (the changeover, rounded up, only grows), then longer plan steps.
  for (int bins = std::max(max_bins, 1); bins >= 1; --bins) {
    if (fits(1, bins)) return 1;
  }
  int multiple = 2;
  while (!fits(multiple, 1)) ++multiple;
  return multiple;
}

int SlackPlan::availability_state(bool up, int age) const {
  const int a = std::clamp(age, 0, ages_ - 1);
  return up ? a : ages_ + a;
}

SlackPlan::SpellStep SlackPlan::spell_step(int x) const {
  const bool up = x < ages_;
  const int age = up ? x : x - ages_;
  return {up, age, availability_state(up, age + 1), availability_state(!up, 0)};
}

void SlackPlan::solve(const SlackPlanInput& in) {
  in_ = in;
  ages_ = std::max<int>(1, static_cast<int>(std::min(in.stay_up.size(), in.stay_down.size())));
  states_ = 2 * ages_;
  width_ = static_cast<std::size_t>(std::max(in.slack_bins, 0)) + 1;
  beliefs_ = !in.stay_up_2.empty() && in.belief_points > 1 ? in.belief_points : 1;
  // Per step: [held][x][s][belief] values; the expectations [x][s][belief]. At the deadline every state with
  // s >= 0 has no work left.
  const std::size_t row = static_cast<std::size_t>(states_) * width_ * static_cast<std::size_t>(beliefs_);
  const std::size_t layer = 3 * row;
  packed_layer_ = (layer + 3) / 4;
  actions_.assign(static_cast<std::size_t>(std::max(in.steps, 0)) * packed_layer_, 0);
  step_actions_.assign(4 * packed_layer_, 0);
  value_.assign(layer, 0.0);
  next_.resize(layer);
  wait_next_.resize(row);
  spot_next_.resize(row);
  od_next_.resize(row);
  if (beliefs_ > 1) {
    solve_with_belief();
    return;
  }
  for (int t = in.steps - 1; t >= 0; --t) {
    next_.swap(value_);
    // Expected value at the next step of each next-held choice, from each availability state now: spot stays (its
    // spell one step older) or turns (a new spell of age 0).
    for (int x = 0; x < states_; ++x) {
      const auto [up, a, same, turned] = spell_step(x);
      const double stay = up ? in.stay_up[static_cast<std::size_t>(a)] : in.stay_down[static_cast<std::size_t>(a)];
      const double p_up = up ? stay : 1.0 - stay;  // P(up at the next step)
      const int next_up = up ? same : turned;
      const int next_down = up ? turned : same;
      for (std::size_t s = 0; s < width_; ++s) {
        const int si = static_cast<int>(s);
        const std::size_t at = static_cast<std::size_t>(x) * width_ + s;
        wait_next_[at] = p_up * next_[state(kNone, next_up, si)] + (1.0 - p_up) * next_[state(kNone, next_down, si)];
        spot_next_[at] =
            p_up * next_[state(kSpotHeld, next_up, si)] + (1.0 - p_up) * next_[state(kNone, next_down, si)];
        od_next_[at] = p_up * next_[state(kOdHeld, next_up, si)] + (1.0 - p_up) * next_[state(kOdHeld, next_down, si)];
      }
    }
    // States with s >= (steps - t) x K have no work left: done, at no cost.
    choose_step(t);
  }
  solved_ = true;
}

void SlackPlan::choose_step(int t) {
  const std::size_t row = width_ * static_cast<std::size_t>(beliefs_);
  const long long done_from = static_cast<long long>(in_.steps - t) * in_.bins_per_step;
  std::uint8_t* act = step_actions_.data();
  for (int held = 0; held < 3; ++held) {
    for (int x = 0; x < states_; ++x) {
      const std::size_t from = static_cast<std::size_t>(x) * row;
      const std::size_t at = state(held, x, 0);
      choose_row(in_, held, x < ages_, done_from, width_, beliefs_, wait_next_.data() + from, spot_next_.data() + from,
                 od_next_.data() + from, value_.data() + at, act + at);
    }
  }
  // Four 2-bit actions to a byte (the padding past the step's states stays 0): the table bounds a plan's size.
  std::uint8_t* packed = actions_.data() + static_cast<std::size_t>(t) * packed_layer_;
  for (std::size_t k = 0; k < packed_layer_; ++k) {
    const std::uint8_t* a = act + 4 * k;
    packed[k] = static_cast<std::uint8_t>(a[0] | (a[1] << 2) | (a[2] << 4) | (a[3] << 6));
  }
}

PlanAction SlackPlan::action(int step, PlanHeld held, bool spot_up, int age, int slack_bins, double belief) const {
  if (!solved_ || step < 0 || step >= in_.steps) return PlanAction::kOnDemand;
  const int s = std::clamp(slack_bins, 0, static_cast<int>(width_) - 1);
  const std::size_t i = state(static_cast<int>(held), availability_state(spot_up, age), s, belief_index(belief));
  const std::uint8_t packed = actions_[static_cast<std::size_t>(step) * packed_layer_ + i / 4];
  return static_cast<PlanAction>((packed >> (2 * (i % 4))) & 3U);
}

double SlackPlan::expected_cost(PlanHeld held, bool spot_up, int age, int slack_bins, double belief) const {
  if (!solved_) return kInfeasible;
  const int s = std::clamp(slack_bins, 0, static_cast<int>(width_) - 1);
  return value_[state(static_cast<int>(held), availability_state(spot_up, age), s, belief_index(belief))];
}

int SlackPlan::belief_index(double belief) const {
  if (beliefs_ <= 1) return 0;
  return std::clamp(static_cast<int>(std::lround(belief * (beliefs_ - 1))), 0, beliefs_ - 1);
}

namespace {

// Bayes: the belief in regime 2 after an outcome that regime 1 gives probability p1 and regime 2 probability p2.
double posterior(double belief, double p1, double p2) {
  const double evidence = belief * p2 + (1.0 - belief) * p1;
  return evidence > 0.0 ? belief * p2 / evidence : belief;
}

}  // namespace

double SlackPlan::next_belief(double belief, bool spot_up, int age, bool stayed) const {
  if (beliefs_ <= 1) return belief;
  const auto a = static_cast<std::size_t>(std::clamp(age, 0, ages_ - 1));
  const double p1 = spot_up ? in_.stay_up[a] : in_.stay_down[a];
  const double p2 = spot_up ? in_.stay_up_2[a] : in_.stay_down_2[a];
  return stayed ? posterior(belief, p1, p2) : posterior(belief, 1.0 - p1, 1.0 - p2);
}

// solve() with a belief over two regimes (storage already sized by solve()): the same recursion with one more
// coordinate, the expectation over the next step's availability taken under the belief and the next belief
// interpolated between grid points.
void SlackPlan::solve_with_belief() {
  const SlackPlanInput& in = in_;
  const int B = beliefs_;
  // Per availability state x and belief point j: P(the spell stays), and the next belief (grid cell, weight of the
  // upper point) when it stays and when it turns.
  struct Step {
    double stay;
    int stay_lo, turn_lo;
    double stay_w, turn_w;
  };
  std::vector<Step> steps(static_cast<std::size_t>(states_) * static_cast<std::size_t>(B));
  const auto cell = [B](double b, int& lo, double& w) {
    const double f = std::clamp(b, 0.0, 1.0) * (B - 1);
    lo = std::min(static_cast<int>(f), B - 2);
    w = f - lo;
  };
  for (int x = 0; x < states_; ++x) {
    const SpellStep spell = spell_step(x);
    const bool up = spell.up;
    const auto a = static_cast<std::size_t>(spell.age);
    const double p1 = up ? in.stay_up[a] : in.stay_down[a];
    const double p2 = up ? in.stay_up_2[a] : in.stay_down_2[a];
    for (int j = 0; j < B; ++j) {
      const double b = static_cast<double>(j) / (B - 1);
      Step& st = steps[static_cast<std::size_t>(x) * static_cast<std::size_t>(B) + static_cast<std::size_t>(j)];
      st.stay = b * p2 + (1.0 - b) * p1;
      cell(posterior(b, p1, p2), st.stay_lo, st.stay_w);
      cell(posterior(b, 1.0 - p1, 1.0 - p2), st.turn_lo, st.turn_w);
    }
  }
  const auto b = static_cast<std::size_t>(B);
  const std::size_t row = width_ * b;
  const auto between = [](const double* v, std::size_t lo, double w) {
    return std::min((1.0 - w) * v[lo] + w * v[lo + 1], kInfeasible);
  };
  for (int t = in.steps - 1; t >= 0; --t) {
    next_.swap(value_);
    // Per availability state and belief point, along the slack (stride B): the next step's value under the
    // belief, interpolated between the grid points around the next belief (weights 1 - w and w, w in [0, 1]: at
    // w = 0 or 1 exactly the grid point's value).
    for (int x = 0; x < states_; ++x) {
      const auto [up, a, same, turned] = spell_step(x);
      const double* none_same = next_.data() + state(kNone, same, 0);
      const double* none_turned = next_.data() + state(kNone, turned, 0);
      const double* od_same = next_.data() + state(kOdHeld, same, 0);
      const double* od_turned = next_.data() + state(kOdHeld, turned, 0);
      const double* spot_same = next_.data() + state(kSpotHeld, same, 0);
      for (std::size_t j = 0; j < b; ++j) {
        const Step& st = steps[static_cast<std::size_t>(x) * b + j];
        const double p = st.stay;
        const auto stay_lo = static_cast<std::size_t>(st.stay_lo), turn_lo = static_cast<std::size_t>(st.turn_lo);
        const std::size_t first = static_cast<std::size_t>(x) * row + j;
        for (std::size_t s = 0; s < width_; ++s) {
          const std::size_t o = s * b;
          const double turned_none = between(none_turned + o, turn_lo, st.turn_w);
          wait_next_[first + o] = p * between(none_same + o, stay_lo, st.stay_w) + (1.0 - p) * turned_none;
          od_next_[first + o] =
              p * between(od_same + o, stay_lo, st.stay_w) + (1.0 - p) * between(od_turned + o, turn_lo, st.turn_w);
          // Spot held: it runs on while the spell lasts; a spell that ends (only an up spell can) loses it.
          spot_next_[first + o] =
              up ? p * between(spot_same + o, stay_lo, st.stay_w) + (1.0 - p) * turned_none : kInfeasible;
        }
      }
    }
    choose_step(t);
  }
  solved_ = true;
}

}  // namespace spotsim

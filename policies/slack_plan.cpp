#include "policies/slack_plan.hpp"

#include <algorithm>

namespace spotsim {

namespace {
constexpr int kNone = static_cast<int>(PlanHeld::kNone);
constexpr int kSpotHeld = static_cast<int>(PlanHeld::kSpot);
constexpr int kOdHeld = static_cast<int>(PlanHeld::kOnDemand);
}  // namespace

double SlackPlan::table_bytes(const SlackPlanInput& in) {
  return static_cast<double>(std::max(in.steps, 0)) * 6.0 * static_cast<double>(in.stay_up.size()) *
         (static_cast<double>(std::max(in.slack_bins, 0)) + 1.0);
}

int SlackPlan::availability_state(bool up, int age) const {
  const int a = std::clamp(age, 0, ages_ - 1);
  return up ? a : ages_ + a;
}

void SlackPlan::solve(const SlackPlanInput& in) {
  in_ = in;
  ages_ = std::max<int>(1, static_cast<int>(std::min(in.stay_up.size(), in.stay_down.size())));
  states_ = 2 * ages_;
  width_ = static_cast<std::size_t>(std::max(in.slack_bins, 0)) + 1;
  const std::size_t row = static_cast<std::size_t>(states_) * width_;
  const std::size_t layer = 3 * row;
  actions_.assign(static_cast<std::size_t>(std::max(in.steps, 0)) * layer, 0);
  value_.assign(layer, 0.0);  // at the deadline every state with s >= 0 has no work left
  next_.resize(layer);
  wait_next_.resize(row);
  spot_next_.resize(row);
  od_next_.resize(row);
  const int k = in.bins_per_step;
  const int d = in.changeover_bins;
  const auto sum = [](double cost, double rest) { return std::min(cost + rest, kInfeasible); };
  for (int t = in.steps - 1; t >= 0; --t) {
    next_.swap(value_);
    // Expected value at the next step of each next-held choice, from each availability state now: spot stays (its
    // spell one step older) or turns (a new spell of age 0).
    for (int x = 0; x < states_; ++x) {
      const bool up = x < ages_;
      const int a = up ? x : x - ages_;
      const int older = std::min(a + 1, ages_ - 1);
      const double stay = up ? in.stay_up[static_cast<std::size_t>(a)] : in.stay_down[static_cast<std::size_t>(a)];
      const int same = up ? older : ages_ + older;
      const int turned = up ? ages_ : 0;
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
    const long long done_from = static_cast<long long>(in.steps - t) * k;
    std::uint8_t* act = actions_.data() + static_cast<std::size_t>(t) * layer;
    for (int held = 0; held < 3; ++held) {
      const auto kept = static_cast<std::uint8_t>(held == kNone       ? PlanAction::kWait
                                                  : held == kSpotHeld ? PlanAction::kSpot
                                                                      : PlanAction::kOnDemand);
      for (int x = 0; x < states_; ++x) {
        const bool up = x < ages_;
        const double* wait_e = wait_next_.data() + static_cast<std::size_t>(x) * width_;
        const double* spot_e = spot_next_.data() + static_cast<std::size_t>(x) * width_;
        const double* od_e = od_next_.data() + static_cast<std::size_t>(x) * width_;
        for (int s = 0; s < static_cast<int>(width_); ++s) {
          const std::size_t at = state(held, x, s);
          if (s >= done_from) {
            value_[at] = 0.0;
            act[at] = kept;
            continue;
          }
          if (s < in.commit_bins) {  // the safety net's: on-demand for all the work left
            value_[at] = in.on_demand_cost_per_step * static_cast<double>(done_from - s) / k;
            act[at] = static_cast<std::uint8_t>(PlanAction::kOnDemand);
            continue;
          }
          // Ties go to what the job holds (no needless changeover), then to spot (progress now, at spot's price),
          // then to waiting. A state the plan cannot finish from goes to on-demand: with the plan's rounding (slack
          // down, changeover up) that may be what makes it infeasible, and on-demand now is the job's best chance.
          double best = kInfeasible;
          auto choice = PlanAction::kOnDemand;
          const auto consider = [&](double v, PlanAction a, bool holds) {
            if (v < best || (holds && v <= best && v < kInfeasible)) best = v, choice = a;
          };
          if (up) {
            const int from = held == kSpotHeld ? s : s - d;
            consider(from >= 0 ? sum(in.spot_cost_per_step, spot_e[from]) : kInfeasible, PlanAction::kSpot,
                     held == kSpotHeld);
          }
          consider(s >= k ? wait_e[s - k] : kInfeasible, PlanAction::kWait, false);
          const int from = held == kOdHeld ? s : s - d;
          consider(from >= 0 ? sum(in.on_demand_cost_per_step, od_e[from]) : kInfeasible, PlanAction::kOnDemand,
                   held == kOdHeld);
          value_[at] = best;
          act[at] = static_cast<std::uint8_t>(choice);
        }
      }
    }
  }
  solved_ = true;
}

PlanAction SlackPlan::action(int step, PlanHeld held, bool spot_up, int age, int slack_bins) const {
  if (!solved_ || step < 0 || step >= in_.steps) return PlanAction::kOnDemand;
  const int s = std::clamp(slack_bins, 0, static_cast<int>(width_) - 1);
  const std::size_t layer = 3 * static_cast<std::size_t>(states_) * width_;
  return static_cast<PlanAction>(actions_[static_cast<std::size_t>(step) * layer +
                                          state(static_cast<int>(held), availability_state(spot_up, age), s)]);
}

double SlackPlan::expected_cost(PlanHeld held, bool spot_up, int age, int slack_bins) const {
  if (!solved_) return kInfeasible;
  const int s = std::clamp(slack_bins, 0, static_cast<int>(width_) - 1);
  return value_[state(static_cast<int>(held), availability_state(spot_up, age), s)];
}

}  // namespace spotsim

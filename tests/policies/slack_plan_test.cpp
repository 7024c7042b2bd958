// The `planned` policy's plan (policies/slack_plan.hpp) against results worked by hand and against an independent
// expectimax over every course of action (with one regime, and with a belief over two), and its spell model
// (policies/spell_model.hpp) against spells counted by hand.
#include "policies/slack_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "policies/spell_model.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

// 10 steps, 4 bins per step, 2 steps of slack (8 bins), so 8 steps of work; a changeover of 2 bins.
SlackPlanInput small_plan(double stay_up, double stay_down) {
  SlackPlanInput in;
  in.steps = 10;
  in.bins_per_step = 4;
  in.slack_bins = 8;
  in.changeover_bins = 2;
  in.spot_cost_per_step = 0.3;
  in.on_demand_cost_per_step = 1.0;
  in.stay_up = {stay_up};
  in.stay_down = {stay_down};
  return in;
}

TEST(SlackPlan, SpotThatNeverGoesCostsTheWorkAndOneChangeoverOfSpot) {
  SlackPlan plan;
  plan.solve(small_plan(1.0, 0.0));
  // 32 bins of work and 2 of changeover: 8.5 steps, billed as 9 whole steps of spot (waiting a step first would
  // cost the same 9: a tie, which goes to spot).
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kNone, true, 0, 8), 9 * 0.3, 1e-12);
  EXPECT_EQ(plan.action(0, PlanHeld::kNone, true, 0, 8), PlanAction::kSpot);
  // Held already: no changeover, 8 steps.
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kSpot, true, 0, 8), 8 * 0.3, 1e-12);
  // Down now, back at the next step for sure: waiting a step costs 4 bins of slack and nothing else.
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kNone, false, 0, 8), 9 * 0.3, 1e-12);
  EXPECT_EQ(plan.action(0, PlanHeld::kNone, false, 0, 8), PlanAction::kWait);
}

TEST(SlackPlan, SpotThatNeverComesCostsOnDemandAndTheJobWaitsWhileItMay) {
  SlackPlan plan;
  plan.solve(small_plan(0.0, 1.0));
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kNone, false, 0, 8), 9 * 1.0, 1e-12);
  // Waiting is free while the slack lasts (ties go to waiting); with less than a step and a changeover, it starts.
  EXPECT_EQ(plan.action(0, PlanHeld::kNone, false, 0, 8), PlanAction::kWait);
  EXPECT_EQ(plan.action(2, PlanHeld::kNone, false, 0, 5), PlanAction::kOnDemand);
  // On on-demand with no slack: the rest of the work, 10 steps.
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kOnDemand, false, 0, 0), 10.0, 1e-12);
}

TEST(SlackPlan, AStateThatCannotMeetTheDeadlineIsInfeasible) {
  SlackPlan plan;
  plan.solve(small_plan(0.5, 0.5));
  // Less slack than a changeover and nothing held: no start fits.
  EXPECT_EQ(plan.expected_cost(PlanHeld::kNone, true, 0, 1), SlackPlan::kInfeasible);
  EXPECT_LT(plan.expected_cost(PlanHeld::kNone, true, 0, 2), SlackPlan::kInfeasible);
}

TEST(SlackPlan, BelowTheSafetyNetsMarginTheWorkLeftGoesOnOnDemand) {
  SlackPlanInput in = small_plan(1.0, 0.0);
  in.commit_bins = 4;
  SlackPlan plan;
  plan.solve(in);
  EXPECT_EQ(plan.action(0, PlanHeld::kSpot, true, 0, 3), PlanAction::kOnDemand);
  EXPECT_NEAR(plan.expected_cost(PlanHeld::kSpot, true, 0, 3), (40.0 - 3.0) / 4.0, 1e-12);
  EXPECT_EQ(plan.action(0, PlanHeld::kSpot, true, 0, 4), PlanAction::kSpot);
}

// An independent expectimax over every course of action, by plain recursion on the rules of slack_plan.hpp. With two
// regimes the belief b = P(regime 2) is an exact real number (Bayes after every step, no grid): the partially
// observed problem the belief plan approximates on its grid. With one regime, regime 2 is regime 1 and b is moot.
class Expectimax {
 public:
  explicit Expectimax(const SlackPlanInput& in) : in_(in), ages_(static_cast<int>(in.stay_up.size())) {
    if (in_.stay_up_2.empty()) in_.stay_up_2 = in_.stay_up, in_.stay_down_2 = in_.stay_down;
  }

  double value(int t, int held, bool up, int age, int s, double b = 0.0) {
    const auto key = std::make_tuple(t, held, up, age, s, b);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    double v = 0.0;
    const int k = in_.bins_per_step;
    if (s >= (in_.steps - t) * k) {
      v = 0.0;
    } else if (s < in_.commit_bins) {
      v = in_.on_demand_cost_per_step * ((in_.steps - t) * k - s) / k;
    } else {
      v = SlackPlan::kInfeasible;
      for (const PlanAction a : {PlanAction::kWait, PlanAction::kSpot, PlanAction::kOnDemand}) {
        v = std::min(v, action_value(t, held, up, age, s, a, b));
      }
    }
    memo_[key] = v;
    return v;
  }

  // The expected cost of taking `action` now and the best course after it (kInfeasible where it is not allowed);
  // only where the job has work left and is above the safety net.
  double action_value(int t, int held, bool up, int age, int s, PlanAction action, double b = 0.0) {
    const int k = in_.bins_per_step, d = in_.changeover_bins;
    const auto a = static_cast<std::size_t>(age);
    const double p1 = up ? in_.stay_up[a] : in_.stay_down[a];
    const double p2 = up ? in_.stay_up_2[a] : in_.stay_down_2[a];
    const double stay = b * p2 + (1.0 - b) * p1;
    const double b_stay = stay > 0.0 ? b * p2 / stay : b;
    const double b_turn = stay < 1.0 ? b * (1.0 - p2) / (1.0 - stay) : b;
    const int older = std::min(age + 1, ages_ - 1);
    const auto next = [&](int next_held, int s_next) {
      const int held_turned = up && next_held == 1 ? 0 : next_held;
      return stay * value(t + 1, next_held, up, older, s_next, b_stay) +
             (1.0 - stay) * value(t + 1, held_turned, !up, 0, s_next, b_turn);
    };
    double v = SlackPlan::kInfeasible;
    if (action == PlanAction::kWait && s - k >= 0 && !(in_.on_demand_until_spot && held == 2)) v = next(0, s - k);
    if (action == PlanAction::kSpot && up) {
      const int from = held == 1 ? s : s - d;
      if (from >= 0) v = in_.spot_cost_per_step + next(1, from);
    }
    if (action == PlanAction::kOnDemand) {
      const int from = held == 2 ? s : s - d;
      if (from >= 0) v = in_.on_demand_cost_per_step + next(2, from);
    }
    return std::min(v, SlackPlan::kInfeasible);
  }

 private:
  SlackPlanInput in_;
  int ages_;
  std::map<std::tuple<int, int, bool, int, int, double>, double> memo_;
};

// A small random problem: up to 6 steps, 8 bins of slack, 3 spell ages; with `belief_points` > 1 a second regime.
SlackPlanInput random_small_problem(std::mt19937& rng, int belief_points) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SlackPlanInput in;
  in.steps = 1 + static_cast<int>(rng() % 6);
  in.bins_per_step = 1 + static_cast<int>(rng() % 3);
  in.slack_bins = static_cast<int>(rng() % 8);
  in.changeover_bins = static_cast<int>(rng() % 4);
  in.commit_bins = rng() % 3 == 0 ? static_cast<int>(rng() % 3) : 0;
  in.spot_cost_per_step = 0.1 + unit(rng);
  in.on_demand_cost_per_step = 1.0;
  const int ages = 1 + static_cast<int>(rng() % 3);
  for (int a = 0; a < ages; ++a) {
    in.stay_up.push_back(unit(rng));
    in.stay_down.push_back(unit(rng));
    if (belief_points > 1) {
      in.stay_up_2.push_back(unit(rng));
      in.stay_down_2.push_back(unit(rng));
    }
  }
  in.belief_points = belief_points;
  in.on_demand_until_spot = rng() % 2 == 0;
  return in;
}

TEST(SlackPlan, EqualsAnIndependentExpectimaxOnRandomSmallProblems) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const SlackPlanInput in = random_small_problem(rng, 1);
    const int ages = static_cast<int>(in.stay_up.size());
    SlackPlan plan;
    plan.solve(in);
    Expectimax reference(in);
    for (int held = 0; held < 3; ++held) {
      for (int up = 0; up < 2; ++up) {
        for (int age = 0; age < ages; ++age) {
          for (int s = 0; s <= in.slack_bins; ++s) {
            const double want = reference.value(0, held, up == 1, age, s);
            const double got = plan.expected_cost(static_cast<PlanHeld>(held), up == 1, age, s);
            ASSERT_NEAR(got, want, 1e-9 * std::max(1.0, want))
                << "trial " << trial << ", held " << held << ", up " << up << ", age " << age << ", s " << s;
          }
        }
      }
    }
  }
}

// The action table (2 bits an action, four to a byte) holds, at every step and in every state the plan can finish
// from, an action whose expected cost is the optimum's: on random small problems of every size modulo 4, with and
// without a belief grid.
TEST(SlackPlan, EveryStoredActionIsOptimalAtEveryStep) {
  std::mt19937 rng(5);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int belief_points = trial % 2 == 0 ? 1 : 3;
    const SlackPlanInput in = random_small_problem(rng, belief_points);
    SlackPlan plan;
    plan.solve(in);
    Expectimax reference(in);
    const int k = in.bins_per_step;
    for (int t = 0; t < in.steps; ++t) {
      for (int held = 0; held < 3; ++held) {
        for (int up = 0; up < 2; ++up) {
          for (int age = 0; age < static_cast<int>(in.stay_up.size()); ++age) {
            for (int s = in.commit_bins; s <= in.slack_bins && s < (in.steps - t) * k; ++s) {
              for (int j = 0; j < belief_points; ++j) {
                const double b = belief_points > 1 ? static_cast<double>(j) / (belief_points - 1) : 0.0;
                if (belief_points > 1 && j == 1) continue;  // between the regimes the grid plan interpolates
                const double best = reference.value(t, held, up == 1, age, s, b);
                if (best >= SlackPlan::kInfeasible) continue;
                const PlanAction a = plan.action(t, static_cast<PlanHeld>(held), up == 1, age, s, b);
                ASSERT_NEAR(reference.action_value(t, held, up == 1, age, s, a, b), best, 1e-9 * std::max(1.0, best))
                    << "trial " << trial << ", step " << t << ", held " << held << ", up " << up << ", age " << age
                    << ", s " << s << ", belief " << b << ", action " << static_cast<int>(a);
                ++checked;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(SlackPlan, OnDemandUntilSpotNeverWaitsFromOnDemandAndCostsNoLessThanTheFreePlan) {
  std::mt19937 rng(5);
  int constrained = 0;
  for (int trial = 0; trial < 300; ++trial) {
    SlackPlanInput in = random_small_problem(rng, 1 + static_cast<int>(rng() % 2) * 2);
    in.on_demand_until_spot = false;
    SlackPlan free_plan;
    free_plan.solve(in);
    in.on_demand_until_spot = true;
    SlackPlan plan;
    plan.solve(in);
    const int ages = static_cast<int>(in.stay_up.size());
    for (int up = 0; up < 2; ++up) {
      for (int age = 0; age < ages; ++age) {
        for (int s = 0; s <= in.slack_bins; ++s) {
          for (const double b : {0.0, 0.5, 1.0}) {
            ASSERT_NE(plan.action(0, PlanHeld::kOnDemand, up == 1, age, s, b), PlanAction::kWait)
                << "trial " << trial << ", up " << up << ", age " << age << ", s " << s << ", belief " << b;
            for (int held = 0; held < 3; ++held) {
              const double got = plan.expected_cost(static_cast<PlanHeld>(held), up == 1, age, s, b);
              const double freely = free_plan.expected_cost(static_cast<PlanHeld>(held), up == 1, age, s, b);
              ASSERT_GE(got, freely - 1e-9 * std::max(1.0, freely)) << "trial " << trial;
              constrained += got > freely + 1e-9 ? 1 : 0;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(constrained, 0) << "the rule never changed a cost: the test would not see it";
}

TEST(SlackPlanBelief, AtACertainBeliefItIsThePlanOfThatRegime) {
  // Bayes keeps a certain belief certain, so at b = 0 and b = 1 the belief plan is exactly the one-regime plan of
  // regime 1 and of regime 2 (checked against the one-regime expectimax), whatever the grid.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const SlackPlanInput in = random_small_problem(rng, 2 + static_cast<int>(rng() % 5));
    SlackPlan plan;
    plan.solve(in);
    SlackPlanInput first = in, second = in;
    first.stay_up_2.clear(), first.stay_down_2.clear(), first.belief_points = 1;
    second.stay_up = in.stay_up_2, second.stay_down = in.stay_down_2;
    second.stay_up_2.clear(), second.stay_down_2.clear(), second.belief_points = 1;
    Expectimax one(first), two(second);
    for (int held = 0; held < 3; ++held) {
      for (int up = 0; up < 2; ++up) {
        for (int age = 0; age < static_cast<int>(in.stay_up.size()); ++age) {
          for (int s = 0; s <= in.slack_bins; ++s) {
            const auto h = static_cast<PlanHeld>(held);
            const double want1 = one.value(0, held, up == 1, age, s), want2 = two.value(0, held, up == 1, age, s);
            ASSERT_NEAR(plan.expected_cost(h, up == 1, age, s, 0.0), want1, 1e-9 * std::max(1.0, want1))
                << "trial " << trial;
            ASSERT_NEAR(plan.expected_cost(h, up == 1, age, s, 1.0), want2, 1e-9 * std::max(1.0, want2))
                << "trial " << trial;
          }
        }
      }
    }
  }
}

TEST(SlackPlanBelief, OnAFineGridItApproachesTheExactBeliefExpectimax) {
  // Between grid points the plan interpolates the value; on 201 points its values at every grid belief are within
  // 0.1% of the exact (real-valued belief) expectimax (2e-5 measured), and it risks the deadline exactly where the
  // expectimax does.
  std::mt19937 rng(23);
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    const SlackPlanInput in = random_small_problem(rng, 201);
    SlackPlan plan;
    plan.solve(in);
    Expectimax exact(in);
    for (int held = 0; held < 3; ++held) {
      for (int up = 0; up < 2; ++up) {
        for (int s = 0; s <= in.slack_bins; ++s) {
          for (const int j : {0, 37, 100, 163, 200}) {
            const double b = j / 200.0;
            const double want = exact.value(0, held, up == 1, 0, s, b);
            const double got = plan.expected_cost(static_cast<PlanHeld>(held), up == 1, 0, s, b);
            // A course that risks the deadline costs a share of kInfeasible: such values only need to be as huge.
            if (want >= 1e12) {
              ASSERT_GE(got, 1e12) << "trial " << trial;
              continue;
            }
            ASSERT_LT(got, 1e12) << "trial " << trial;
            worst = std::max(worst, std::abs(got - want) / std::max(1.0, want));
          }
        }
      }
    }
  }
  EXPECT_LT(worst, 0.001);
  EXPECT_GT(worst, 0.0);  // interior beliefs are interpolated: not bit for bit (else the check would be vacuous)
}

TEST(SlackPlanBelief, TheBeliefMovesByBayes) {
  SlackPlanInput in = small_plan(0.9, 0.5);
  in.stay_up_2 = {0.5};
  in.stay_down_2 = {0.9};
  in.belief_points = 3;
  SlackPlan plan;
  plan.solve(in);
  // Up and stayed: 0.5 x 0.5 / (0.5 x 0.5 + 0.5 x 0.9); up and went: 0.5 x 0.5 / (0.5 x 0.5 + 0.5 x 0.1).
  EXPECT_NEAR(plan.next_belief(0.5, true, 0, true), 0.25 / 0.7, 1e-12);
  EXPECT_NEAR(plan.next_belief(0.5, true, 0, false), 0.25 / 0.3, 1e-12);
  EXPECT_NEAR(plan.next_belief(0.5, false, 0, true), 0.45 / 0.7, 1e-12);
  EXPECT_EQ(plan.next_belief(0.0, true, 0, true), 0.0);
  EXPECT_EQ(plan.next_belief(1.0, false, 0, false), 1.0);
}

TEST(SlackPlan, MoreSlackNeverCostsMore) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    SlackPlanInput in;
    in.steps = 20 + static_cast<int>(rng() % 30);
    in.bins_per_step = 1 + static_cast<int>(rng() % 5);
    in.slack_bins = static_cast<int>(rng() % 60);
    in.changeover_bins = static_cast<int>(rng() % 6);
    in.spot_cost_per_step = 0.1 + 0.8 * unit(rng);
    in.on_demand_cost_per_step = 1.0;
    in.stay_up = {unit(rng), unit(rng), unit(rng)};
    in.stay_down = {unit(rng), unit(rng), unit(rng)};
    SlackPlan plan;
    plan.solve(in);
    for (int held = 0; held < 3; ++held) {
      for (int s = 1; s <= in.slack_bins; ++s) {
        for (int age = 0; age < 3; ++age) {
          ASSERT_LE(plan.expected_cost(static_cast<PlanHeld>(held), true, age, s),
                    plan.expected_cost(static_cast<PlanHeld>(held), true, age, s - 1) + 1e-12)
              << "trial " << trial;
        }
      }
      // Never dearer than on-demand for the rest from where it can start.
      const int s = in.slack_bins;
      if (s >= in.changeover_bins && s < in.steps * in.bins_per_step) {
        const double od =
            in.on_demand_cost_per_step *
            std::ceil(static_cast<double>(in.steps * in.bins_per_step - s + in.changeover_bins) / in.bins_per_step);
        ASSERT_LE(plan.expected_cost(static_cast<PlanHeld>(held), false, 0, s), od + 1e-9) << "trial " << trial;
      }
    }
  }
}

TEST(SlackPlan, TheLayoutKeepsTheWholeTableWithinTheBudgetBeliefGridIncluded) {
  // A 48 h job with a 70 h deadline on 600 s steps, 12 spell ages: 40 M states at 10 bins per step with one regime
  // (10 MB at 2 bits an action), three times that with a belief over two regimes on 3 points.
  constexpr Millis kStep = 600 * kMillisPerSecond;
  SlackPlanInput one;
  one.stay_up.assign(12, 0.5);
  SlackPlanInput two = one;
  two.stay_up_2.assign(12, 0.5);
  two.belief_points = 3;
  const double budget = 16.0 * 1024 * 1024;
  EXPECT_EQ(fit_plan_table(one, 70 * kMillisPerHour, 22 * kMillisPerHour, kStep, 10, budget), 1);
  EXPECT_EQ(one.bins_per_step, 10);
  EXPECT_EQ(one.steps, 420);
  EXPECT_EQ(one.slack_bins, 1320);
  EXPECT_EQ(fit_plan_table(two, 70 * kMillisPerHour, 22 * kMillisPerHour, kStep, 10, budget), 1);
  EXPECT_LE(SlackPlan::table_bytes(two), budget);
  EXPECT_EQ(two.bins_per_step, 5);  // 420 x 6 x 12 x 661 x 3 = 60 M states, 15 MB; 6 bins would be 18 MB
  // Where even one bin per step is too many, the plan step spans several decision steps.
  two.stay_up.assign(400, 0.5);
  two.stay_up_2.assign(400, 0.5);
  const int multiple = fit_plan_table(two, 70 * kMillisPerHour, 22 * kMillisPerHour, kStep, 10, budget);
  EXPECT_GT(multiple, 1);
  EXPECT_EQ(two.bins_per_step, 1);
  EXPECT_LE(SlackPlan::table_bytes(two), budget);
  EXPECT_EQ(two.steps, (420 + multiple - 1) / multiple);
}

TEST(SpellModel, SpellsLeaveOutTheCensoredFirstAndLast) {
  std::vector<int> ups, downs;
  spell_lengths({false, false, true, true, true, false, true, true, false, false}, ups, downs);
  EXPECT_EQ(ups, (std::vector<int>{3, 2}));
  EXPECT_EQ(downs, (std::vector<int>{1}));
}

TEST(SpellModel, StayProbabilitiesAreKaplanMeierWithOnePseudoSpell) {
  // Spells of 3 and 2 steps, a pseudo-spell of mean 2 (so it lasts a step with probability 1/2).
  const std::vector<double> stay = stay_probabilities({3, 2}, 3, 2.0);
  ASSERT_EQ(stay.size(), 3u);
  EXPECT_NEAR(stay[0], (2.0 + 0.5) / 3.0, 1e-12);  // both lasted past age 0
  EXPECT_NEAR(stay[1], (1.0 + 0.5) / 3.0, 1e-12);  // one of the two lasted past age 1
  // The last age: a geometric tail with the mean residual (3 - 2 = 1, and the pseudo-spell's 2) of 1.5 steps.
  EXPECT_NEAR(stay[2], 1.0 - 1.0 / 1.5, 1e-12);
}

TEST(SpellModel, ARecordingIsSampledAtTheStepAndPooledOverItsZones) {
  constexpr Millis kH = kMillisPerHour;
  SpotMarket m = testing::single_zone_market(std::nullopt);
  m.span = 10 * kH;
  // Up 0-2 h, down 2-3 h, up 3-6 h, down 6-8 h, up 8-10 h: sampled hourly, 1 1 0 1 1 1 0 0 1 1.
  m.zones[0].spot.available = StepSeries({0, 2 * kH, 3 * kH, 6 * kH, 8 * kH}, {1.0, 0.0, 1.0, 0.0, 1.0}, m.span);
  m.zones.push_back(m.zones[0]);  // a second zone, the same: every count doubles, the estimates do not change
  const SpellModel model = recorded_spell_model(m, 1, kH, 2, 2 * kH);
  // Up spells: 3 (per zone); down: 1 and 2. Prior: one pseudo-spell of 2 steps.
  EXPECT_NEAR(model.stay_up[0], (2.0 + 0.5) / 3.0, 1e-12);
  EXPECT_NEAR(model.stay_down[0], (2.0 + 0.5) / 5.0, 1e-12);  // of 4 gaps, the two of 2 steps lasted past age 0
  const SpellModel geometric = geometric_spell_model(2 * kH, kH, kH, 3);
  EXPECT_NEAR(geometric.stay_up[2], std::exp(-0.5), 1e-12);
  EXPECT_NEAR(geometric.stay_down[0], std::exp(-1.0), 1e-12);
}

TEST(SpellModel, TheLibraryIsThePooledModelThenEachZonesOwnAndTheRegimesSplitTheZonesByAvailability) {
  constexpr Millis kH = kMillisPerHour;
  SpotMarket m = testing::single_zone_market(std::nullopt);
  m.span = 10 * kH;
  // Zone 0 as above (up spell 3; gaps 1 and 2); zone 1 flips every hour (up spells 1, 1, 1, 1; gaps 1, 1, 1, 1).
  m.zones[0].spot.available = StepSeries({0, 2 * kH, 3 * kH, 6 * kH, 8 * kH}, {1.0, 0.0, 1.0, 0.0, 1.0}, m.span);
  m.zones.push_back(m.zones[0]);
  std::vector<Millis> times;
  std::vector<double> values;
  for (int h = 0; h < 10; ++h) times.push_back(h * kH), values.push_back(h % 2 == 0 ? 1.0 : 0.0);
  m.zones[1].spot.available = StepSeries(times, values, m.span);
  const std::vector<SpellModel> library = recorded_zone_spell_models(m, 1, kH, 2, 2 * kH);
  ASSERT_EQ(library.size(), 3u);
  EXPECT_EQ(library[0].stay_up, recorded_spell_model(m, 1, kH, 2, 2 * kH).stay_up);
  EXPECT_EQ(library[0].stay_down, recorded_spell_model(m, 1, kH, 2, 2 * kH).stay_down);
  EXPECT_EQ(library[1].stay_up, stay_probabilities({3}, 2, 2.0));
  EXPECT_EQ(library[1].stay_down, stay_probabilities({1, 2}, 2, 2.0));
  EXPECT_EQ(library[2].stay_up, stay_probabilities({1, 1, 1, 1}, 2, 2.0));
  EXPECT_EQ(library[2].stay_down, stay_probabilities({1, 1, 1, 1}, 2, 2.0));
  // The pooled model counts every zone's spells: 5 up spells, of which one lasted past age 0.
  EXPECT_NEAR(library[0].stay_up[0], (1.0 + 0.5) / 6.0, 1e-12);
  // Two regimes: zone 0 has spot 7 of 10 hours, zone 1 5 of 10; below the mean (0.6) is scarce, first.
  const std::vector<SpellModel> regimes = recorded_regime_models(m, 1, kH, 2, 2 * kH);
  ASSERT_EQ(regimes.size(), 2u);
  EXPECT_EQ(regimes[0].stay_up, library[2].stay_up);
  EXPECT_EQ(regimes[1].stay_up, library[1].stay_up);
  EXPECT_EQ(regimes[1].stay_down, library[1].stay_down);
  m.zones.pop_back();  // one zone: one regime
  EXPECT_EQ(recorded_regime_models(m, 1, kH, 2, 2 * kH).size(), 1u);
}

}  // namespace
}  // namespace spotsim

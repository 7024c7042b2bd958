#!/usr/bin/python3
"""A slack plan whose state carries a belief over two regimes of spot availability (a small POMDP), as a Python
policy in the Can't Be Late mode: the experiment behind experiments/adaptive/README.md#regime-plan.

`planned` (policies/planned_policy.cpp) plans on one model of spot spells, the one the run's spells make most
probable; when a window changes regime (scarce for hours, then plentiful) that plan has spent the slack the new
regime would have used. Here the plan knows there are two regimes, "scarce" and "plentiful", and that the market may
switch between them: its state is (tick, what the job holds, spot up or down and the age of that spell, slack, belief
b = P(plentiful) on a grid of B points). After each tick the belief is updated by Bayes with the probability each
regime gives to what spot did (stayed or turned at its age), then mixed with the chance of a switch, 1 / `--switch`
ticks; between grid points the value is interpolated linearly. The two regimes are the 2023 campaign's zones
(experiments/traces/cbl/cbl-aws-02-15-2023-*, sampled at 600 s: other zones, another year) pooled in two groups,
those with spot available less often than the campaign as a whole and the others.

usage: PYTHONPATH=build/python experiments/adaptive/regime_plan.py [--shared ../shared] [--belief 11]
       [--switch 144] [--windows later|later-pairs|leaderboard]
later: the windows of later_windows.py (leaderboard changeovers and deadlines, where parameters may be chosen);
later-pairs: later_windows.py --pairs --changeovers 0.2 --deadlines 52,...,80 (also for choosing); leaderboard: the
ADRS-Leaderboard grid (a report).
"""
import argparse
import glob
import math
import os
import statistics
import sys

import numpy as np

from spotsim.score import run_windows

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slack_plan import (AGES, BIG, BINS, OD, REPO, SPOT, TICK_S, WORK_H, converted_traces, sampled,  # noqa: E402
                        spells, stay_probabilities, window_starts)

ENVS = ("us-west-2a_k80_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8",
        "us-west-2b_v100_1")
PAIRS = ("us-west-2a_k80_1",) + ENVS + ("us-west-2b_v100_8",)


def regimes(scarce_zones=None):
    """(scarce, plentiful), each (stay_up, stay_down), from the 2023 campaign's zones in two groups: those with spot
    available less often than the zones' average, or the `scarce_zones` least available."""
    zones = []
    for path in sorted(glob.glob(os.path.join(REPO, "experiments", "traces", "cbl", "cbl-aws-02-15-2023-*.json"))):
        ticks = sampled(path, TICK_S)
        zones.append((sum(ticks) / len(ticks), spells(ticks)))
    pooled = sum(a for a, _ in zones) / len(zones)
    if scarce_zones:
        pooled = sorted(a for a, _ in zones)[scarce_zones]
    groups = []
    for plentiful in (False, True):
        ups, downs = [], []
        for availability, (u, d) in zones:
            if (availability >= pooled) == plentiful:
                ups, downs = ups + u, downs + d
        groups.append((stay_probabilities(ups), stay_probabilities(downs)))
    return groups


def belief_step(b, p_scarce, p_plentiful, stayed, switch):
    """The belief in the plentiful regime after spot stayed (or turned), each regime's stay probability given."""
    like_p = p_plentiful if stayed else 1 - p_plentiful
    like_s = p_scarce if stayed else 1 - p_scarce
    post = b * like_p / np.maximum(b * like_p + (1 - b) * like_s, 1e-300)
    return post * (1 - switch) + (1 - post) * switch


def solve_on_grid(trans, steps, changeover_bins, slack_bins, points, od_until_spot=False):
    """act[t, held, x, s, g]: 0 wait, 1 spot, 2 on-demand; x < AGES: up for x ticks, else down for x - AGES; g: a
    belief grid point. trans[x] = (up, P(stay) at each grid point, next x if it stays, (vertices, weights) of the
    next belief at each grid point if it stays, next x if it turns, the same if it turns)."""
    X, S, K, D, G = 2 * AGES, slack_bins + 1, BINS, changeover_bins, points
    act = np.zeros((steps, 3, X, S, G), dtype=np.int8)
    value = np.zeros((3, X, S, G))

    def at(v, where):  # v[..., S, G] at the interpolated next belief of every grid point
        vertices, weights = where
        return sum(v[..., vertices[:, k]] * weights[:, k] for k in range(vertices.shape[1]))

    def shifted(e, k):
        out = np.full_like(e, BIG)
        if k < S:
            out[:, k:] = e[:, :S - k]
        return out

    spot_tick, od_tick = SPOT * TICK_S / 3600, OD * TICK_S / 3600
    for t in range(steps - 1, -1, -1):
        nxt = value
        wait_e, spot_e, od_e = np.empty((X, S, G)), np.full((X, S, G), BIG), np.empty((X, S, G))
        for x, (up, p, stay_to, stay_b, turn_to, turn_b) in enumerate(trans):
            wait_e[x] = p * at(nxt[0, stay_to], stay_b) + (1 - p) * at(nxt[0, turn_to], turn_b)
            od_e[x] = p * at(nxt[2, stay_to], stay_b) + (1 - p) * at(nxt[2, turn_to], turn_b)
            if up:  # on spot: spot lost when it turns
                spot_e[x] = p * at(nxt[1, stay_to], stay_b) + (1 - p) * at(nxt[0, turn_to], turn_b)
        options = {
            0: (shifted(wait_e, K), shifted(spot_e, D) + spot_tick, shifted(od_e, D) + od_tick),
            1: (shifted(wait_e, K), spot_e + spot_tick, shifted(od_e, D) + od_tick),
            # --od-until-spot: on on-demand, waiting is no option (the built-in plan's rule)
            2: (np.full((X, S, G), BIG) if od_until_spot else shifted(wait_e, K), shifted(spot_e, D) + spot_tick,
                od_e + od_tick),
        }
        value = np.empty((3, X, S, G))
        for held, q in options.items():
            stacked = np.minimum(np.stack(q), BIG)
            act[t, held] = stacked.argmin(axis=0)
            value[held] = stacked.min(axis=0)
        value[:, :, (steps - t) * K:, :] = 0.0  # no work left
    return act


def next_states(x):
    """(spot up, age, next x if the spell stays, next x if it turns) of availability state x."""
    up, a = x < AGES, x % AGES
    older = min(a + 1, AGES - 1)
    return up, a, (older if up else AGES + older), (AGES if up else 0)


def solve(models, steps, changeover_bins, slack_bins, belief_points, switch, od_until_spot=False):
    """The two-regime plan on the belief grid j / (B - 1), j = 0..B-1."""
    (su_s, sd_s), (su_p, sd_p) = models
    B = belief_points
    grid = np.linspace(0.0, 1.0, B)

    def interpolation(b_next):
        f = b_next * (B - 1)
        lo = np.minimum(np.floor(f).astype(int), B - 2)
        return np.stack([lo, lo + 1], axis=1), np.stack([1 - (f - lo), f - lo], axis=1)

    # Per availability state: P(stay) under the belief, and where the belief goes when spot stays or turns.
    trans = []
    for x in range(2 * AGES):
        up, a, stay_to, turn_to = next_states(x)
        p_s, p_p = (su_s[a], su_p[a]) if up else (sd_s[a], sd_p[a])
        trans.append((up, grid * p_p + (1 - grid) * p_s, stay_to,
                      interpolation(belief_step(grid, p_s, p_p, True, switch)), turn_to,
                      interpolation(belief_step(grid, p_s, p_p, False, switch))))
    return solve_on_grid(trans, steps, changeover_bins, slack_bins, B, od_until_spot)


class BeliefPlanPolicy:
    """A belief plan's action at each tick (the per-tick protocol of spotsim's Python policies): the belief is moved
    by what spot did since the last tick, as the plan assumes (update), and the nearest grid point is looked up."""
    name = "belief-plan"

    def __init__(self, act, deadline_s, models, prior):
        self.act, self.deadline, self.models, self.prior = act, deadline_s, models, prior
        self.history, self.belief = [], prior

    def decide(self, obs):
        raise RuntimeError("the Can't Be Late mode's per-tick protocol only")

    def begin(self, obs):
        self.history, self.belief = [], self.prior

    def age(self):
        """Ticks the current spell has lasted before the last one seen (up to AGES - 1)."""
        age, i = 0, len(self.history) - 1
        while i > 0 and self.history[i - 1] == self.history[-1] and age < AGES - 1:
            age, i = age + 1, i - 1
        return age

    def decide_tick(self, elapsed, progress, held, instance_age, has_spot):
        t = int(round(elapsed / TICK_S))
        if t == 0:
            self.history, self.belief = [], self.prior
        if self.history:  # what spot did since the last tick, at the age its spell had then
            self.belief = self.update(self.history[-1], self.age(), (1 if has_spot else 0) == self.history[-1])
        self.history.append(1 if has_spot else 0)
        age = self.age()
        x = age if has_spot else AGES + age
        slack = (self.deadline - elapsed) - (WORK_H * 3600 - progress)
        s = min(max(int(math.floor(slack / TICK_S * BINS + 1e-9)), 0), self.act.shape[3] - 1)
        if t >= self.act.shape[0]:
            return 2
        choice = int(self.act[t, held, x, s, self.grid_index()])
        return 2 if choice == 1 and not has_spot else choice


class RegimePlanPolicy(BeliefPlanPolicy):
    name = "regime-plan"

    def __init__(self, act, deadline_s, models, switch, prior=0.5):
        super().__init__(act, deadline_s, models, prior)
        self.switch = switch

    def update(self, was_up, age, stayed):
        (su_s, sd_s), (su_p, sd_p) = self.models
        p_s, p_p = (su_s[age], su_p[age]) if was_up else (sd_s[age], sd_p[age])
        return float(belief_step(self.belief, p_s, p_p, stayed, self.switch))

    def grid_index(self):
        return int(round(self.belief * (self.act.shape[4] - 1)))


def evaluate(windows, shared, spotsim, out, label, cell_policy):
    """Runs the windows of `windows` (later, later-pairs, leaderboard), cell_policy(d, deadline, steps,
    changeover_bins, slack_bins) giving each (d, R) cell's policy; prints the table row and each env's mean."""
    os.makedirs(out, exist_ok=True)
    envs = PAIRS if windows == "later-pairs" else ENVS
    traces = converted_traces(spotsim, shared, out, envs)
    starts = window_starts("later" if windows.startswith("later") else "leaderboard", shared, envs)
    cells = ([(0.2, r) for r in (52.0, 56.0, 60.0, 64.0, 70.0, 80.0)] if windows == "later-pairs"
             else [(d, r) for d in (0.02, 0.05, 0.10) for r in (52.0, 70.0)])
    everything, late, means, per_env = [], 0, [], {env: [] for env in envs}
    for d, deadline in cells:
        steps = int(round(deadline * 3600 / TICK_S))
        slack_bins = int(round((deadline - WORK_H) * 3600 / TICK_S * BINS))
        changeover_bins = int(math.ceil(d * 3600 / TICK_S * BINS - 1e-9))
        make_policy = cell_policy(d, deadline, steps, changeover_bins, slack_bins)
        costs = []
        for env in envs:
            runs = run_windows(traces[env], starts[env], make_policy(), deadline, restart_overhead_hours=d)
            costs += list(runs["cost_total"])
            per_env[env] += list(runs["cost_total"])
            late += sum(1 for met in runs["deadline_met"] if not met)
        means.append(statistics.mean(costs))
        everything += costs
        print(f"  d {d} h, R {deadline:.0f} h: {means[-1]:.2f}", file=sys.stderr, flush=True)
    print(f"| {label} | {windows} | {statistics.mean(everything):.2f} | {late} | " +
          " | ".join(f"{m:.2f}" for m in means) + " |")
    print("  " + ", ".join(f"{env} {statistics.mean(c):.2f}" for env, c in per_env.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(REPO, "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/regime-plan")
    parser.add_argument("--belief", type=int, default=11, help="belief grid points [11]")
    parser.add_argument("--switch", type=float, default=144.0, help="mean ticks between regime switches [144]")
    parser.add_argument("--windows", default="later", choices=["later", "later-pairs", "leaderboard"])
    parser.add_argument("--od-until-spot", action="store_true",
                        help="on on-demand, leave only for spot, never to wait (the built-in planned's rule)")
    parser.add_argument("--prior", type=float, default=0.5, help="belief in the plentiful regime at the start [0.5]")
    parser.add_argument("--scarce-zones", type=int, help="the scarce regime: this many least available zones "
                        "[default: those below the zones' average]")
    args = parser.parse_args()
    models = regimes(args.scarce_zones)
    switch = 1.0 / args.switch

    def cell_policy(d, deadline, steps, changeover_bins, slack_bins):
        act = solve(models, steps, changeover_bins, slack_bins, args.belief, switch, args.od_until_spot)
        return lambda: RegimePlanPolicy(act, deadline * 3600, models, switch, args.prior)

    evaluate(args.windows, args.shared, args.spotsim, args.out,
             f"regime plan, B {args.belief}, switch {args.switch:g}, prior {args.prior:g}", cell_policy)
    return 0


if __name__ == "__main__":
    sys.exit(main())

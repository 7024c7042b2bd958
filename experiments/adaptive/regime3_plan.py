#!/usr/bin/python3
"""The belief plan of regime_plan.py with three regimes instead of two (an experiment: README.md#regime-plan).

The 2023 campaign's zones in three groups by how often spot is obtainable (at 600 s steps): below `--low` (the
scarcest), below the zones' average, and the rest. The belief is a point of the triangle (b1, b2, 1 - b1 - b2) on a
grid of resolution 1/`--resolution`; between grid points the value is interpolated on the grid's triangles
(Freudenthal's triangulation: each cell of the grid split along its diagonal). No regime switching.

usage: PYTHONPATH=build/python experiments/adaptive/regime3_plan.py [--shared ../shared] [--resolution 2]
       [--low 0.3] [--windows later|later-pairs|leaderboard]
"""
import argparse
import glob
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slack_plan import AGES, REPO, TICK_S, sampled, spells, stay_probabilities  # noqa: E402
from regime_plan import BeliefPlanPolicy, evaluate, next_states, solve_on_grid  # noqa: E402


def regimes(low):
    """Three (stay_up, stay_down): zones with spot available less than `low`, less than the zones' average, the rest."""
    zones = []
    for path in sorted(glob.glob(os.path.join(REPO, "experiments", "traces", "cbl", "cbl-aws-02-15-2023-*.json"))):
        ticks = sampled(path, TICK_S)
        zones.append((sum(ticks) / len(ticks), spells(ticks)))
    mean = sum(a for a, _ in zones) / len(zones)
    groups = [([], []), ([], []), ([], [])]
    for availability, (u, d) in zones:
        g = 0 if availability < low else 1 if availability < mean else 2
        groups[g] = (groups[g][0] + u, groups[g][1] + d)
    return [(stay_probabilities(u), stay_probabilities(d)) for u, d in groups]


def grid_points(n):
    """[(b1, b2)] with b1 + b2 <= 1 on a grid of resolution 1/n, and their index by (i, j)."""
    points, index = [], {}
    for i in range(n + 1):
        for j in range(n + 1 - i):
            index[(i, j)] = len(points)
            points.append((i / n, j / n))
    return np.array(points), index


def interpolation(b1, b2, n, index):
    """The three grid points around (b1, b2) and their barycentric weights."""
    x, y = min(max(b1, 0.0), 1.0) * n, min(max(b2, 0.0), 1.0) * n
    i, j = min(int(math.floor(x)), n), min(int(math.floor(y)), n)
    fx, fy = x - i, y - j
    if i + j >= n:  # on the hypotenuse
        return [index[(i, n - i)] if i <= n else index[(n, 0)]] * 3, [1.0, 0.0, 0.0]
    if fx + fy <= 1.0:
        return [index[(i, j)], index[(i + 1, j)], index[(i, j + 1)]], [1 - fx - fy, fx, fy]
    if i + j + 2 > n:  # on the hypotenuse, past it by rounding only
        return [index[(i, j)], index[(i + 1, j)], index[(i, j + 1)]], [0.0, fx / (fx + fy), fy / (fx + fy)]
    return [index[(i + 1, j + 1)], index[(i + 1, j)], index[(i, j + 1)]], [fx + fy - 1, 1 - fy, 1 - fx]


def posterior(b, probabilities):
    """Bayes: the belief (over the three regimes) after an outcome of the given probability under each."""
    w = np.array([b[0], b[1], 1 - b[0] - b[1]]) * np.array(probabilities)
    total = w.sum()
    return (w[0] / total, w[1] / total) if total > 0 else (b[0], b[1])


def solve(models, steps, changeover_bins, slack_bins, n):
    """The three-regime plan on the triangle grid of resolution 1/n; returns (act, grid points)."""
    points, index = grid_points(n)
    trans = []
    for x in range(2 * AGES):
        up, a, stay_to, turn_to = next_states(x)
        p = [m[0][a] if up else m[1][a] for m in models]
        stay = np.array([b1 * p[0] + b2 * p[1] + (1 - b1 - b2) * p[2] for b1, b2 in points])
        moves = []
        for outcome in (p, [1 - q for q in p]):
            cells = [interpolation(*posterior(b, outcome), n, index) for b in points]
            moves.append((np.array([v for v, _ in cells]), np.array([w for _, w in cells])))
        trans.append((up, stay, stay_to, moves[0], turn_to, moves[1]))
    return solve_on_grid(trans, steps, changeover_bins, slack_bins, len(points)), points


class Regime3PlanPolicy(BeliefPlanPolicy):
    name = "regime3-plan"

    def __init__(self, act, points, deadline_s, models):
        super().__init__(act, deadline_s, models, (1 / 3, 1 / 3))
        self.points = points

    def update(self, was_up, age, stayed):
        p = [m[0][age] if was_up else m[1][age] for m in self.models]
        return posterior(self.belief, p if stayed else [1 - q for q in p])

    def grid_index(self):
        return int(np.argmin(((self.points - np.array(self.belief)) ** 2).sum(axis=1)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(REPO, "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/regime3-plan")
    parser.add_argument("--resolution", type=int, default=2)
    parser.add_argument("--low", type=float, default=0.3, help="availability below which a zone is the scarcest")
    parser.add_argument("--windows", default="later", choices=["later", "later-pairs", "leaderboard"])
    args = parser.parse_args()
    models = regimes(args.low)

    def cell_policy(d, deadline, steps, changeover_bins, slack_bins):
        act, points = solve(models, steps, changeover_bins, slack_bins, args.resolution)
        return lambda: Regime3PlanPolicy(act, points, deadline * 3600, models)

    evaluate(args.windows, args.shared, args.spotsim, args.out,
             f"three regimes, resolution 1/{args.resolution}, low {args.low:g}", cell_policy)
    return 0


if __name__ == "__main__":
    sys.exit(main())

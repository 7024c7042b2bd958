#!/usr/bin/python3
"""The numpy prototype of the built-in `planned` policy (policies/slack_plan.cpp), as a Python policy in the Can't Be
Late mode, kept for the models the policy does not offer, such as each env's own later recording (the in-sample
ceiling of experiments/adaptive/README.md#slack-plan). With --model calibration it gives `planned`'s mean cost in
every (d, R) cell of the later windows.

Time is cut into the recording's ticks (600 s) and the slack s = time left - work left into K bins per tick. At
each tick the job, holding nothing, spot or on-demand, with spot up or down (and the age of that spell, up to A
ticks), waits (s falls a tick), runs spot (when up) or on-demand; starting what it does not hold costs the changeover
d (rounded up to bins) and a tick costs the price of what runs. Spot follows a semi-Markov model: P(a spell of age a
lasts another tick). Backward induction from the deadline gives the cost-minimising action in every state; the
policy looks it up. No safety net: the plan itself keeps the deadline (a late run is reported).

Models (--model):
  geometric:UP,DOWN  no age dependence, mean spell UP h and gap DOWN h (data-independent)
  calibration        pooled from the 2023 campaign (experiments/traces/cbl/cbl-aws-02-15-2023-*, sampled at 600 s):
                     other zones, another year; no harness scores on them
  in-sample          each env's own spells after tick 1,739 (the later windows' own data: a ceiling, not a policy)

usage: PYTHONPATH=build/python experiments/adaptive/slack_plan.py [--shared ../shared] --model M
       [--windows later|leaderboard]
later: the windows of later_windows.py (where parameters may be chosen); leaderboard: the ADRS-Leaderboard grid
(a report). Prints the mean cost of each (d, R) cell, the mean over all runs and the late runs.
"""
import argparse
import csv
import glob
import json
import math
import os
import random
import statistics
import subprocess
import sys

import numpy as np

from spotsim.harness_windows import RECORDINGS
from spotsim.score import run_windows

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ENVS = ("us-west-2a_k80_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8",
        "us-west-2b_v100_1")
TICK_S, WORK_H, SPOT, OD = 600.0, 48.0, 0.9731, 3.06
BIG = 1e6
AGES = 12
BINS = 10


def spells(ticks):
    """Up and down spell lengths (ticks) of a 0/1 sequence; the censored first and last spells are dropped."""
    ups, downs, i, n = [], [], 0, len(ticks)
    while i < n:
        j = i
        while j < n and ticks[j] == ticks[i]:
            j += 1
        if i > 0 and j < n:
            (ups if ticks[i] else downs).append(j - i)
        i = j
    return ups, downs


def stay_probabilities(lengths, prior_mean=12.0):
    """P(a spell of age a lasts another tick), a = 0..AGES-1; the last age is a geometric tail. One pseudo-spell of
    prior_mean ticks keeps every estimate defined."""
    lengths = np.array(lengths, dtype=float)
    q = np.zeros(AGES)
    for a in range(AGES):
        if a < AGES - 1:
            q[a] = ((lengths > a + 1).sum() + 1 - 1 / prior_mean) / ((lengths > a).sum() + 1)
        else:
            tail = lengths[lengths > a] - a
            q[a] = 1 - 1 / max((tail.sum() + prior_mean) / (len(tail) + 1), 1.0)
    return np.clip(q, 0.0, 0.9999)


def sampled(path, tick_s):
    """A spotsim trace's availability sampled at every tick boundary (0/1)."""
    trace = json.load(open(path))
    availability = trace["zones"][0]["spot"]["availability"]
    times, counts, out, j = availability["times_s"], availability["counts"], [], 0
    for k in range(int(trace["span_s"] // tick_s)):
        while j + 1 < len(times) and times[j + 1] <= k * tick_s:
            j += 1
        out.append(1 if counts[j] >= 1 else 0)
    return out


def solve(stay_up, stay_down, steps, changeover_bins, slack_bins):
    """act[t, held, x, s]: 0 wait, 1 spot, 2 on-demand; x < AGES: up for x ticks, else down for x - AGES."""
    X, S, K, D = 2 * AGES, slack_bins + 1, BINS, changeover_bins
    act = np.zeros((steps, 3, X, S), dtype=np.int8)
    value = np.zeros((3, X, S))
    older = np.minimum(np.arange(AGES) + 1, AGES - 1)

    def shifted(e, k):
        out = np.full_like(e, BIG)
        out[:, k:] = e[:, :S - k] if k < S else BIG
        return out

    for t in range(steps - 1, -1, -1):
        nxt = value
        wait_e, spot_e, od_e = np.empty((X, S)), np.full((X, S), BIG), np.empty((X, S))
        for a in range(AGES):
            p, up_next, down_next = stay_up[a], older[a], AGES
            wait_e[a] = p * nxt[0, up_next] + (1 - p) * nxt[0, down_next]
            spot_e[a] = p * nxt[1, up_next] + (1 - p) * nxt[0, down_next]
            od_e[a] = p * nxt[2, up_next] + (1 - p) * nxt[2, down_next]
            p, down_next = stay_down[a], AGES + older[a]
            wait_e[AGES + a] = p * nxt[0, down_next] + (1 - p) * nxt[0, 0]
            od_e[AGES + a] = p * nxt[2, down_next] + (1 - p) * nxt[2, 0]
        spot_tick, od_tick = SPOT * TICK_S / 3600, OD * TICK_S / 3600
        options = {
            0: (shifted(wait_e, K), shifted(spot_e, D) + spot_tick, shifted(od_e, D) + od_tick),
            1: (shifted(wait_e, K), spot_e + spot_tick, shifted(od_e, D) + od_tick),
            2: (shifted(wait_e, K), shifted(spot_e, D) + spot_tick, od_e + od_tick),
        }
        value = np.empty((3, X, S))
        for held, q in options.items():
            stacked = np.minimum(np.stack(q), BIG)
            act[t, held] = stacked.argmin(axis=0)
            value[held] = stacked.min(axis=0)
        value[:, :, (steps - t) * K:] = 0.0  # no work left
    return act


class SlackPlanPolicy:
    """The plan's action at each tick (the per-tick protocol of spotsim's Python policies)."""
    name = "slack-plan"

    def __init__(self, act, deadline_s):
        self.act, self.deadline, self.history = act, deadline_s, []

    def decide(self, obs):
        raise RuntimeError("the Can't Be Late mode's per-tick protocol only")

    def begin(self, obs):
        self.history = []

    def decide_tick(self, elapsed, progress, held, instance_age, has_spot):
        t = int(round(elapsed / TICK_S))
        if t == 0:
            self.history = []
        self.history.append(1 if has_spot else 0)
        age, i = 0, len(self.history) - 1
        while i > 0 and self.history[i - 1] == self.history[-1] and age < AGES - 1:
            age, i = age + 1, i - 1
        x = age if has_spot else AGES + age
        slack = (self.deadline - elapsed) - (WORK_H * 3600 - progress)
        s = min(max(int(math.floor(slack / TICK_S * BINS + 1e-9)), 0), self.act.shape[3] - 1)
        if t >= self.act.shape[0]:
            return 2
        choice = int(self.act[t, held, x, s])
        return 2 if choice == 1 and not has_spot else choice


def models(kind, shared):
    """{env: (stay_up, stay_down)}"""
    if kind.startswith("geometric:"):
        up, down = (float(v) * 3600 / TICK_S for v in kind.split(":", 1)[1].split(","))
        q = (np.full(AGES, 1 - 1 / up), np.full(AGES, 1 - 1 / down))
        return {env: q for env in ENVS}
    if kind == "calibration":
        ups, downs = [], []
        for path in sorted(glob.glob(os.path.join(REPO, "experiments", "traces", "cbl", "cbl-aws-02-15-2023-*.json"))):
            u, d = spells(sampled(path, TICK_S))
            ups, downs = ups + u, downs + d
        q = (stay_probabilities(ups), stay_probabilities(downs))
        return {env: q for env in ENVS}
    if kind == "in-sample":
        out = {}
        for env in ENVS:
            u, d = spells([int(c) for c in RECORDINGS[env][1739:]])
            out[env] = (stay_probabilities(u), stay_probabilities(d))
        return out
    sys.exit(f"--model: expected geometric:UP,DOWN, calibration or in-sample, got {kind!r}")


def converted_traces(spotsim, shared, out, envs):
    """{env: path}: each env's recording as a spotsim trace, priced as the harnesses price every env."""
    traces = {}
    for env in envs:
        traces[env] = os.path.join(out, env + ".json")
        source = os.path.join(shared, "data", "preemption", "aws-gcp-spot-availability", "availability", "1-node",
                              "aws-10-26-2022", env + ".json")
        subprocess.run([spotsim, "trace", "convert", source, "--on-demand-price", str(OD), "--spot-price", str(SPOT),
                        "-o", traces[env]], check=True, capture_output=True)
    return traces


def window_starts(kind, shared, envs):
    """{env: [start seconds]}: later_windows.py's windows ("later") or the ADRS-Leaderboard's ("leaderboard")."""
    if kind == "later":  # as later_windows.py draws them (its env order: the draws depend on it)
        rng = random.Random(7)
        return {env: [s * 600 for s in sorted(rng.sample(range(1739, len(RECORDINGS[env]) - 554 + 1), 40))]
                for env in envs}
    with open(os.path.join(shared, "data", "validation", "policy-harnesses", "windows.csv")) as f:
        rows = list(csv.DictReader(f))
    return {env: [int(w["start_tick"]) * 600 for w in rows if w["pair"] == env] for env in envs}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(REPO, "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(REPO, "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/slack-plan")
    parser.add_argument("--model", required=True)
    parser.add_argument("--windows", default="later", choices=["later", "leaderboard"])
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    traces = converted_traces(args.spotsim, args.shared, args.out, ENVS)
    starts = window_starts(args.windows, args.shared, ENVS)
    model = models(args.model, args.shared)
    everything, late, cells = [], 0, []
    for d in (0.02, 0.05, 0.10):
        for deadline in (52.0, 70.0):
            steps = int(round(deadline * 3600 / TICK_S))
            slack_bins = int(round((deadline - WORK_H) * 3600 / TICK_S * BINS))
            changeover_bins = int(math.ceil(d * 3600 / TICK_S * BINS - 1e-9))
            costs, plans = [], {}
            for env in ENVS:
                key = id(model[env][0])
                if key not in plans:
                    plans[key] = solve(*model[env], steps, changeover_bins, slack_bins)
                runs = run_windows(traces[env], starts[env], SlackPlanPolicy(plans[key], deadline * 3600), deadline,
                                   restart_overhead_hours=d)
                costs += list(runs["cost_total"])
                late += sum(1 for met in runs["deadline_met"] if not met)
            cells.append((d, deadline, statistics.mean(costs)))
            everything += costs
    print("| model | windows | mean cost USD | late runs | " +
          " | ".join(f"d {d} h, {r:.0f} h" for d, r, _ in cells) + " |")
    print("|---|---|---|---|" + "---|" * len(cells))
    print(f"| {args.model} | {args.windows} | {statistics.mean(everything):.2f} | {late} | " +
          " | ".join(f"{c:.2f}" for _, _, c in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Policies on windows no public harness uses: the ADRS-Leaderboard's 6 envs after tick 1,739 of their recordings.

Every harness window of these envs starts by tick 1,184 and lasts 554 ticks, so windows starting from tick 1,739 share
no recorded moment with any of them. 40 random windows per env (fixed seed), the leaderboard's deadlines (52, 70 h)
and changeovers (0.02, 0.05, 0.10 h), a 48 h job in the Can't Be Late mode, priced as the harnesses price every env.
Prints, per policy, the mean cost per run over all 1,440 runs, the late runs, and the mean cost of each (d, R)
cell. This is where `adaptive`'s tick rounding of the confirmation was chosen (README.md#changeover).

usage: PYTHONPATH=build/python experiments/adaptive/later_windows.py [--shared ../shared]
       [--spotsim build/tools/spotsim] [--out /tmp/later-windows] POLICY...
"""
import argparse
import os
import random
import statistics
import subprocess
import sys

from spotsim.harness_windows import RECORDINGS
from spotsim.score import run_windows

HERE = os.path.dirname(os.path.abspath(__file__))
ENVS = ("us-west-2a_k80_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8",
        "us-west-2b_v100_1")
PAIRS = ("us-west-2a_k80_1",) + ENVS + ("us-west-2b_v100_8",)  # the paper's eight
FIRST_TICK, WINDOW_TICKS, GAP = 1739, 554, 600


def converted_recording(shared, spotsim, out, pair):
    """The 2022 recording of `pair` converted into `out` at the harnesses' (and the paper's) prices; its path."""
    os.makedirs(out, exist_ok=True)
    trace = os.path.join(out, pair + ".json")
    source = os.path.join(shared, "data", "preemption", "aws-gcp-spot-availability", "availability", "1-node",
                          "aws-10-26-2022", pair + ".json")
    subprocess.run([spotsim, "trace", "convert", source, "--on-demand-price", "3.06", "--spot-price", "0.9731", "-o",
                    trace], check=True, capture_output=True)
    return trace


def later_windows(envs, shared, spotsim, out):
    """Each env's trace (converted into `out` with the harnesses' prices) and its 40 later windows' start ticks, the
    same for every caller (seed 7)."""
    rng = random.Random(7)
    traces, starts = {}, {}
    for env in envs:
        traces[env] = converted_recording(shared, spotsim, out, env)
        last = len(RECORDINGS[env]) - WINDOW_TICKS
        starts[env] = sorted(rng.sample(range(FIRST_TICK, last + 1), 40))
    return traces, starts


def add_source_arguments(parser):
    """--shared, --spotsim and --out: where the recordings, the binary that converts them and the traces are."""
    parser.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(HERE, "..", "..", "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/later-windows")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_source_arguments(parser)
    parser.add_argument("--pairs", action="store_true", help="the paper's 8 pairs instead of the leaderboard's 6 envs")
    parser.add_argument("--changeovers", default="0.02,0.05,0.10", help="changeovers d, hours [0.02,0.05,0.10]")
    parser.add_argument("--deadlines", default="52,70", help="deadlines R, hours [52,70]")
    parser.add_argument("--per-env", action="store_true", help="also print each env's mean cost")
    parser.add_argument("policies", nargs="+")
    args = parser.parse_args()
    envs = PAIRS if args.pairs else ENVS
    traces, starts = later_windows(envs, args.shared, args.spotsim, args.out)
    cells = [(float(d), float(r)) for d in args.changeovers.split(",") for r in args.deadlines.split(",")]
    print("| policy | mean cost USD | late runs | " + " | ".join(f"d {d} h, {r:.0f} h" for d, r in cells) + " |")
    print("|---|---|---|" + "---|" * len(cells))
    for policy in args.policies:
        everything, means, late, per_env = [], [], 0, {env: [] for env in envs}
        for d, deadline in cells:
            costs = []
            for env in envs:
                runs = run_windows(traces[env], [s * GAP for s in starts[env]], policy, deadline,
                                   restart_overhead_hours=d)
                costs += list(runs["cost_total"])
                per_env[env] += list(runs["cost_total"])
                late += sum(1 for met in runs["deadline_met"] if not met)
            means.append(statistics.mean(costs))
            everything += costs
        print(f"| `{policy}` | {statistics.mean(everything):.2f} | {late} | "
              + " | ".join(f"{m:.2f}" for m in means) + " |", flush=True)
        if args.per_env:
            print("  " + ", ".join(f"{env} {statistics.mean(c):.2f}" for env, c in per_env.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

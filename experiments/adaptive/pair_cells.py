#!/usr/bin/python3
"""`adaptive` against Uniform Progress in every (pair, deadline) cell of the paper's single-region setting.

Wu et al., Can't Be Late (NSDI'24), single region: the 8 AWS pairs recorded from 2022-10-26 (600 s ticks), 300
random windows of 554 ticks per pair (the paper's evaluation draws its windows at random; its own list is not
public, so these are drawn with a fixed seed), a 48 h job, deadlines 52-80 h, changeover d = 0.2 h, on-demand 3.06
and spot 0.9731 USD/h, the Can't Be Late mode. Prints the saving against on-demand (1 - cost / 147.90, the
simulator's whole-tick on-demand cost) of each policy per cell and the paired difference with its 95% interval.
A report: no parameter was chosen on these windows.

usage: PYTHONPATH=build/python experiments/adaptive/pair_cells.py [--shared ../shared] [--spotsim build/tools/spotsim]
       [--out /tmp/pair-cells] [--windows 300] [--changeover 0.2] [--seed 2024] [POLICY [BASELINE]]
"""
import argparse
import os
import random
import statistics
import sys

from later_windows import converted_recording
from spotsim.harness_windows import RECORDINGS
from spotsim.score import run_windows

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = ("us-west-2a_k80_1", "us-west-2a_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8", "us-west-2b_k80_1",
         "us-west-2b_k80_8", "us-west-2b_v100_1", "us-west-2b_v100_8")
DEADLINES = (52.0, 56.0, 60.0, 64.0, 70.0, 80.0)
ON_DEMAND = 147.90  # 290 whole ticks of on-demand
WINDOW_TICKS, GAP = 554, 600


def paper_windows(shared, spotsim, out, count=300, seed=2024):
    """Each pair's trace (converted into `out` at the paper's prices) and its `count` random window starts (seconds),
    drawn pair after pair from one generator seeded with `seed`, the same for every caller."""
    rng = random.Random(seed)
    traces, starts = {}, {}
    for pair in PAIRS:
        traces[pair] = converted_recording(shared, spotsim, out, pair)
        ticks = len(RECORDINGS[pair])
        starts[pair] = [rng.randrange(0, ticks - WINDOW_TICKS) * GAP for _ in range(count)]
    return traces, starts


def add_window_arguments(parser):
    """--shared, --spotsim, --out, --windows and --seed: the recordings, the binary, where the traces go, and the
    draw of the paper's windows."""
    parser.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(HERE, "..", "..", "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/pair-cells")
    parser.add_argument("--windows", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2024, help="of the windows drawn [2024: the tables in the docs]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_window_arguments(parser)
    parser.add_argument("--changeover", type=float, default=0.2)
    parser.add_argument("policies", nargs="*", default=["adaptive", "uniform-progress"])
    args = parser.parse_args()
    policy, baseline = (args.policies + ["uniform-progress"])[:2]
    traces, windows = paper_windows(args.shared, args.spotsim, args.out, args.windows, args.seed)
    print(f"| pair | deadline | `{baseline}` saving | `{policy}` saving | difference (paired, points) |")
    print("|---|---|---|---|---|")
    below, savings = [], {policy: [], baseline: []}
    for pair in PAIRS:
        trace, starts = traces[pair], windows[pair]
        for deadline in DEADLINES:
            ours = run_windows(trace, starts, policy, deadline, restart_overhead_hours=args.changeover)
            base = run_windows(trace, starts, baseline, deadline, restart_overhead_hours=args.changeover)
            diffs = [100 * (b - a) / ON_DEMAND for a, b in zip(ours["cost_total"], base["cost_total"])]
            mean = statistics.mean(diffs)
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            save = lambda costs: 100 * (1 - statistics.mean(costs) / ON_DEMAND)
            print(f"| {pair} | {deadline:.0f} h | {save(base['cost_total']):.1f}% | {save(ours['cost_total']):.1f}% | "
                  f"{mean:+.1f} ± {half:.1f} |", flush=True)
            savings[baseline].append(save(base["cost_total"]))
            savings[policy].append(save(ours["cost_total"]))
            if mean < 0:
                below.append((pair, deadline, mean))
    print(f"\nMean saving over the {len(savings[policy])} cells: `{baseline}` {statistics.mean(savings[baseline]):.1f}%, "
          f"`{policy}` {statistics.mean(savings[policy]):.1f}%.")
    print(f"{len(below)} of {len(PAIRS) * len(DEADLINES)} cells where `{policy}` saves less than `{baseline}`"
          + (": " + ", ".join(f"{p} {d:.0f} h ({m:+.1f})" for p, d, m in below) if below else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Policies away from the settings they were chosen at: longer jobs, other slack and larger changeovers.

`adaptive`'s plan and its start belief were chosen on the later windows at the public grids' changeovers (d = 0.02
to 0.2 h) and a 48 h job. Here: the paper's 8 pairs after tick 1,739 (no harness window reaches there), jobs of 48
and 96 h, deadlines of 1.1, 1.25 and 1.5 x the job, d = 0.2, 0.4 and 0.6 h, 30 random windows per cell (fixed
seeds), the Can't Be Late mode at the harnesses' prices (on-demand 3.06, spot 0.9731 USD/h). Prints, per d, each
policy's mean cost per hour of work and mean regret to the optimum over the 48 cells, the cells where the first
policy is dearer than the second, and the cells where a policy costs more than on-demand alone. A report: no
parameter is chosen here.

usage: PYTHONPATH=build/python experiments/adaptive/generalisation.py [--shared ../shared]
       [--spotsim build/tools/spotsim] [--out /tmp/later-windows] [--windows 30] [POLICY...]
"""
import argparse
import statistics
import sys
import random
import zlib

from later_windows import FIRST_TICK, PAIRS, add_source_arguments, later_windows
from spotsim.harness_windows import RECORDINGS
from spotsim.score import run_windows

JOBS = (48.0, 96.0)
SLACK = (1.1, 1.25, 1.5)
CHANGEOVERS = (0.2, 0.4, 0.6)
ON_DEMAND = "on-demand"
OPTIMUM = "optimal-offline"


def starts_for(pair, work, ratio, count):
    """`count` window starts (seconds) after FIRST_TICK that fit a `work` x `ratio` h deadline, the same every run."""
    span = int(work * ratio * 6) + 2
    last = len(RECORDINGS[pair]) - span
    rng = random.Random(zlib.crc32(f"{pair} {work} {ratio}".encode()))
    return [rng.randrange(FIRST_TICK, last) * 600 for _ in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_source_arguments(parser)
    parser.add_argument("--windows", type=int, default=30)
    parser.add_argument("policies", nargs="*", default=["adaptive", "uniform-progress", "greedy"])
    args = parser.parse_args()
    policies = args.policies + [ON_DEMAND, OPTIMUM]
    traces, _ = later_windows(PAIRS, args.shared, args.spotsim, args.out)
    cells = []  # (pair, work, ratio, d, {policy: [cost per run]})
    for pair in PAIRS:
        for work in JOBS:
            for ratio in SLACK:
                starts = starts_for(pair, work, ratio, args.windows)
                for d in CHANGEOVERS:
                    costs = {p: run_windows(traces[pair], starts, p, work * ratio, work_hours=work,
                                            restart_overhead_hours=d)["cost_total"] for p in policies}
                    cells.append((pair, work, ratio, d, costs))
    first, second = args.policies[0], args.policies[1] if len(args.policies) > 1 else "uniform-progress"
    print("| d | " + " | ".join(f"`{p}` USD per work-hour (regret)" for p in args.policies) +
          f" | optimum | cells where `{first}` is dearer than `{second}` (worst) |")
    print("|---|" + "---|" * (len(args.policies) + 2))
    above_on_demand = []
    for d in CHANGEOVERS:
        rows = [c for c in cells if c[3] == d]
        parts = []
        for p in args.policies:
            per_hour = statistics.mean(statistics.mean(c[4][p]) / c[1] for c in rows)
            regret = statistics.mean(statistics.mean(c[4][p]) / statistics.mean(c[4][OPTIMUM]) - 1 for c in rows)
            parts.append(f"{per_hour:.3f} ({100 * regret:.1f}%)")
            above_on_demand += [(p, c) for c in rows if statistics.mean(c[4][p]) > statistics.mean(c[4][ON_DEMAND])]
        optimum = statistics.mean(statistics.mean(c[4][OPTIMUM]) / c[1] for c in rows)
        losses = [(statistics.mean(c[4][first]) / statistics.mean(c[4][second]) - 1, c) for c in rows
                  if statistics.mean(c[4][first]) > statistics.mean(c[4][second])]
        worst = max(losses, key=lambda x: x[0]) if losses else None
        worst_text = (f" ({100 * worst[0]:+.1f}%: {worst[1][0]}, {worst[1][1]:.0f} h job, {worst[1][2]}x)"
                      if worst else "")
        print(f"| {d} h | " + " | ".join(parts) + f" | {optimum:.3f} | {len(losses)} of {len(rows)}{worst_text} |")
    print(f"\nCells (of {len(cells)}) where a policy's mean cost is above on-demand alone's:")
    for p in args.policies:
        excess = sorted(((statistics.mean(c[4][p]) / statistics.mean(c[4][ON_DEMAND]) - 1, c)
                         for q, c in above_on_demand if q == p), key=lambda x: -x[0])
        pairs = sorted({c[0] for _, c in excess})
        worst = (f"; worst +{100 * excess[0][0]:.1f}% ({excess[0][1][0]}, {excess[0][1][1]:.0f} h job, "
                 f"{excess[0][1][2]}x, d {excess[0][1][3]} h)") if excess else ""
        print(f"- `{p}`: {len(excess)}" + (f" (on {', '.join(pairs)}{worst})" if excess else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

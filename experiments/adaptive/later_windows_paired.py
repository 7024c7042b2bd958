#!/usr/bin/python3
"""Two policies on the later windows (windows no public harness uses), paired run by run, per changeover.

The windows of `later_windows.py`: 40 per env after tick 1,739 of the ADRS-Leaderboard's 6 envs and of the paper's
8 pairs, a 48 h job in the Can't Be Late mode. For each set of envs and each changeover d, over the deadlines given:
the mean of (cost of A - cost of B) per run and its standard error (the same windows for both, so the difference is
paired). A negative difference: A is cheaper.

usage: PYTHONPATH=build/python experiments/adaptive/later_windows_paired.py [--shared ../shared]
       [--changeovers 0.02,0.05,0.1,0.2,0.4] [--deadlines 52,56,60,64,70,80] A B
"""
import argparse
import statistics
import sys

from spotsim.score import run_windows

from later_windows import ENVS, GAP, PAIRS, add_source_arguments, later_windows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_source_arguments(parser)
    parser.add_argument("--changeovers", default="0.02,0.05,0.1,0.2,0.4", help="changeovers d, hours")
    parser.add_argument("--deadlines", default="52,56,60,64,70,80", help="deadlines R, hours")
    parser.add_argument("a")
    parser.add_argument("b")
    args = parser.parse_args()
    changeovers = [float(d) for d in args.changeovers.split(",")]
    deadlines = [float(r) for r in args.deadlines.split(",")]
    print(f"| envs | d h | runs | `{args.a}` - `{args.b}`, USD per run | standard error |")
    print("|---|---|---|---|---|")
    for name, envs in (("leaderboard's 6", ENVS), ("paper's 8 pairs", PAIRS)):
        traces, starts = later_windows(envs, args.shared, args.spotsim, args.out)
        for d in changeovers:
            diffs = []
            for deadline in deadlines:
                for env in envs:
                    windows = [s * GAP for s in starts[env]]
                    a = run_windows(traces[env], windows, args.a, deadline, restart_overhead_hours=d)["cost_total"]
                    b = run_windows(traces[env], windows, args.b, deadline, restart_overhead_hours=d)["cost_total"]
                    diffs += [x - y for x, y in zip(a, b)]
            error = statistics.stdev(diffs) / len(diffs) ** 0.5
            print(f"| {name} | {d:g} | {len(diffs)} | {statistics.mean(diffs):+.3f} | {error:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

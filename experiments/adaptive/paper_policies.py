#!/usr/bin/python3
"""Every single-region built-in policy on the paper's windows, per deadline: saving and regret to the exact optimum.

The windows of pair_cells.py (Wu et al., Can't Be Late, NSDI'24, single region: the 8 AWS pairs of 2022-10-26, 300
random windows per pair with a fixed seed, a 48 h job, deadlines 52-80 h, changeover d = 0.2 h, on-demand 3.06 and
spot 0.9731 USD/h, the Can't Be Late mode). Per policy and deadline over the 2,400 runs: the saving against
on-demand (1 - mean cost / 147.90, the simulator's whole-tick on-demand cost), the mean regret to the exact offline
optimum of each window (cost / optimum - 1) and the runs that missed the deadline. A report: no parameter was chosen
on these windows.

usage: PYTHONPATH=build/python experiments/adaptive/paper_policies.py [--shared ../shared]
       [--spotsim build/tools/spotsim] [--out /tmp/pair-cells] [--windows 300] [--seed 2024] [POLICY...]
"""
import argparse
import statistics
import sys

from pair_cells import DEADLINES, ON_DEMAND, PAIRS, add_window_arguments, paper_windows
from spotsim.score import run_windows

POLICIES = ["greedy", "uniform-progress", "zone-failover", "adaptive:plan=off", "adaptive", "planned"]
OPTIMUM = "optimal-offline"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_window_arguments(parser)
    parser.add_argument("policies", nargs="*", default=POLICIES)
    args = parser.parse_args()
    traces, windows = paper_windows(args.shared, args.spotsim, args.out, args.windows, args.seed)
    policies = args.policies + [OPTIMUM]
    cost = {(p, d): [] for p in policies for d in DEADLINES}
    late = {(p, d): 0 for p in policies for d in DEADLINES}
    for pair in PAIRS:
        for deadline in DEADLINES:
            for p in policies:
                runs = run_windows(traces[pair], windows[pair], p, deadline, restart_overhead_hours=0.2)
                cost[p, deadline] += list(runs["cost_total"])
                late[p, deadline] += int(sum(1 for met in runs["deadline_met"] if not met))
    print("Saving against on-demand (regret to the optimum; late runs where any), "
          f"{len(PAIRS) * args.windows} runs per cell\n")
    print("| policy | " + " | ".join(f"{d:.0f} h" for d in DEADLINES) + " | mean |")
    print("|---|" + "---|" * (len(DEADLINES) + 1))
    for p in policies:
        cells, savings, regrets = [], [], []
        for d in DEADLINES:
            mine, best = cost[p, d], cost[OPTIMUM, d]
            saving = 100 * (1 - statistics.mean(mine) / ON_DEMAND)
            regret = 100 * statistics.mean(c / o - 1 for c, o in zip(mine, best))
            savings.append(saving)
            regrets.append(regret)
            cells.append(f"{saving:.1f}% ({regret:.1f}%" + (f", {late[p, d]} late)" if late[p, d] else ")"))
        print(f"| `{p}` | " + " | ".join(cells) +
              f" | {statistics.mean(savings):.1f}% ({statistics.mean(regrets):.1f}%) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

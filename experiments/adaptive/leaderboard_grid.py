#!/usr/bin/python3
"""Built-in policies on the ADRS-Leaderboard's single-region grid, scored as that harness scores (F1).

The grid (../shared/data/validation/policy-harnesses/README.md): 6 envs of the 10-26-2022 recordings x deadline
R in {52, 70} h x changeover d in {0.02, 0.05, 0.10} h x the harness's 30 windows = 1,080 runs of a 48 h job in the
Can't Be Late mode; F1 = 100 (OD - avg) / (OD - SPOT) with avg the mean cost over all runs, OD = 146.88, SPOT =
46.7088. A report only: no parameter of any policy was chosen on these windows (experiments/adaptive/README.md).

usage: PYTHONPATH=build/python experiments/adaptive/leaderboard_grid.py [--shared ../shared] [--spotsim
       build/tools/spotsim] [--out /tmp/leaderboard-grid] POLICY...
In a POLICY, {trace} stands for each env's own converted recording: "planned:calibration={trace}" plans on the
spells of the very recording it is scored on, a look-ahead (a bound, not a policy).
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys

from spotsim.score import run_windows

HERE = os.path.dirname(os.path.abspath(__file__))
ENVS = ("us-west-2a_k80_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8",
        "us-west-2b_v100_1")
DEADLINES = (52.0, 70.0)
CHANGEOVERS = (0.02, 0.05, 0.10)
OD, SPOT = 146.88, 46.7088


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(HERE, "..", "..", "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/leaderboard-grid")
    parser.add_argument("policies", nargs="+")
    args = parser.parse_args()
    base = os.path.join(args.shared, "data", "preemption", "aws-gcp-spot-availability", "availability", "1-node",
                        "aws-10-26-2022")
    with open(os.path.join(args.shared, "data", "validation", "policy-harnesses", "windows.csv")) as f:
        windows = list(csv.DictReader(f))
    os.makedirs(args.out, exist_ok=True)
    traces = {}
    for env in ENVS:  # priced as the harnesses price every env: 3.06 and 0.9731 USD/h
        traces[env] = os.path.join(args.out, env + ".json")
        subprocess.run([args.spotsim, "trace", "convert", os.path.join(base, env + ".json"), "--on-demand-price",
                        "3.06", "--spot-price", "0.9731", "-o", traces[env]], check=True, capture_output=True)
    print("| policy | runs | mean cost USD | F1 score | late runs |")
    print("|---|---|---|---|---|")
    for policy in args.policies:
        costs, late = [], 0
        for env in ENVS:
            starts = [int(w["start_tick"]) * 600 for w in windows if w["pair"] == env]
            for deadline in DEADLINES:
                for d in CHANGEOVERS:
                    spec = policy.replace("{trace}", traces[env])
                    runs = run_windows(traces[env], starts, spec, deadline, restart_overhead_hours=d)
                    costs += list(runs["cost_total"])
                    late += sum(1 for met in runs["deadline_met"] if not met)
        mean = statistics.mean(costs)
        print("| `{}` | {} | {:.2f} | {:.2f} | {} |".format(policy, len(costs), mean, 100 * (OD - mean) / (OD - SPOT),
                                                              late), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

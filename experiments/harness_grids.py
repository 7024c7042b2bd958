#!/usr/bin/python3
"""Built-in single-region policies on every public Can't Be Late harness grid, scored as each harness scores, with
the regret to the exact offline optimum of every run (docs/validation.md#harness-grids).

Each grid is the harness's own (spotsim.harness.profile: envs, deadlines, changeovers and its 30 windows per env,
../shared/data/validation/policy-harnesses/README.md); every run is spotsim's Can't Be Late mode on the env's
recording of 2022-10-26, priced as the harnesses price every env (on-demand 3.06, spot 0.9731 USD/h), which
reproduces the harnesses run for run (docs/plugins.md#harness-profiles). A report only: no parameter of any policy
was chosen on these windows (experiments/adaptive/README.md).

usage: PYTHONPATH=build/python experiments/harness_grids.py [--shared ../shared] [--spotsim build/tools/spotsim]
       [--out /tmp/harness-grids] [--harness NAME ...] POLICY...
"""
import argparse
import os
import statistics
import subprocess
import sys

from spotsim.harness import profile, score
from spotsim.harness_windows import GAP_SECONDS, WINDOWS
from spotsim.score import run_windows

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESSES = ["adrs-leaderboard", "adrs-openevolve", "gepa-test"] + [
    f"frontier-cs:{a}_{d}_{o}" for a in ("high", "low", "mixed") for d in ("tight", "loose") for o in ("small", "large")]


def convert(args, env):
    """The env's recording priced as the harnesses price it, converted once."""
    out = os.path.join(args.out, env + ".json")
    if not os.path.exists(out):
        source = os.path.join(args.shared, "data", "preemption", "aws-gcp-spot-availability", "availability",
                              "1-node", "aws-10-26-2022", env + ".json")
        subprocess.run([args.spotsim, "trace", "convert", source, "--on-demand-price", "3.06", "--spot-price",
                        "0.9731", "-o", out], check=True, capture_output=True)
    return out


def grid_runs(args, harness, policy, cache):
    """[(cost, deadline met, optimum cost)] for every run of the harness's grid, in its order."""
    prof = profile(harness)
    out = []
    for env in prof.envs:
        starts = [start * GAP_SECONDS for _, start, _ in WINDOWS[env]]
        for deadline in prof.deadlines:
            for d in prof.overheads:
                key = (env, deadline, d)
                if key not in cache:
                    cache[key] = list(run_windows(convert(args, env), starts, "optimal-offline", deadline,
                                                  restart_overhead_hours=d)["cost_total"])
                runs = run_windows(convert(args, env), starts, policy, deadline, restart_overhead_hours=d)
                out += list(zip(runs["cost_total"], runs["deadline_met"], cache[key]))
    return prof, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(HERE, "..", "..", "shared"))
    parser.add_argument("--spotsim", default=os.path.join(HERE, "..", "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/harness-grids")
    parser.add_argument("--harness", nargs="*", default=HARNESSES)
    parser.add_argument("policies", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print("| harness | runs | score | " + " | ".join(f"`{p}`" for p in args.policies) + " |")
    print("|---|---|---|" + "---|" * len(args.policies))
    for harness in args.harness:
        cache = {}
        cells = []
        for policy in args.policies:
            prof, runs = grid_runs(args, harness, policy, cache)
            result = score(prof.score, [{"ok": True, "cost": cost} for cost, _, _ in runs])
            late = sum(1 for _, met, _ in runs if not met)
            regret = statistics.mean(cost / optimum - 1 for cost, _, optimum in runs)
            value = result.get("unbounded", result["score"])
            cells.append("{:.1f} (${:.2f}, regret {:.1f}%{})".format(value, result["mean_cost"], 100 * regret,
                                                                      f", {late} late" if late else ""))
        print(f"| {harness} | {len(runs)} | {prof.score} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

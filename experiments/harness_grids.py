#!/usr/bin/python3
"""Built-in single-region policies on every public Can't Be Late harness grid, scored as each harness scores, with
the regret to the exact offline optimum of every run (docs/validation.md#harness-grids).

Each grid is the harness's own (spotsim.harness.profile: envs, deadlines, changeovers and its 30 windows per env,
../shared/data/validation/policy-harnesses/README.md); every run is spotsim's Can't Be Late mode on the env's
recording of 2022-10-26, priced as the harnesses price every env (on-demand 3.06, spot 0.9731 USD/h), which
reproduces the harnesses run for run (docs/plugins.md#harness-profiles). A report only: no parameter of any policy
was chosen on these windows (experiments/adaptive/README.md).

usage: PYTHONPATH=build/python experiments/harness_grids.py [--harness NAME ...] POLICY...
"""
import argparse
import statistics
import sys

from spotsim.harness import SINGLE_REGION_HARNESSES, evaluate_policy, profile, score



def grid_runs(harness, policy):
    """The harness's profile and [(cost, deadline met, optimum cost)] for every run of its grid, in its order: what
    `spotsim score --policy POLICY --harness HARNESS --regret` runs (spotsim.harness.evaluate_policy)."""
    _, runs = evaluate_policy(policy, harness, regret=True)
    return profile(harness), [(r["cost"], r["deadline_met"], r["optimum_cost"]) for r in runs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--harness", nargs="*", default=list(SINGLE_REGION_HARNESSES))
    parser.add_argument("policies", nargs="+")
    args = parser.parse_args()
    print("| harness | runs | score | " + " | ".join(f"`{p}`" for p in args.policies) + " |")
    print("|---|---|---|" + "---|" * len(args.policies))
    for harness in args.harness:
        cells = []
        for policy in args.policies:
            prof, runs = grid_runs(harness, policy)
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

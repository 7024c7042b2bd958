#!/usr/bin/python3
"""Runs the 40 Can't Be Late reference windows (../shared/data/validation/cant-be-late-reference) through spotsim in
both modes — the Can't Be Late compatibility mode (--mode cant-be-late: per-tick decisions and billing) and the
default event-driven mode (decisions at any moment, per-second billing) — next to the authors' own results, with the
exact offline optimum of each window (--regret). Prints the markdown tables of docs/validation.md#modes.

usage: experiments/cant_be_late_modes.py [BUILD_DIR]   (default: build; needs ../shared beside the repository)
"""
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared", "data")
REFERENCE = os.path.join(SHARED, "validation", "cant-be-late-reference")
BASE = os.path.join(SHARED, "preemption", "aws-gcp-spot-availability", "availability", "1-node", "aws-10-26-2022")
POLICIES = {"on_demand": "on-demand", "strawman": "greedy", "rc_cr_threshold": "uniform-progress"}
JOB = ["--work", "48h", "--startup", "12m", "--restore", "0s", "--checkpoint-write", "0s", "--checkpoint", "continuous"]


def convert(build, pair, out_dir):
    path = os.path.join(out_dir, pair + ".json")
    subprocess.run([os.path.join(build, "tools", "spotsim"), "trace", "convert", os.path.join(BASE, pair + ".json"),
                    "--on-demand-price", "3.06", "--spot-price", "0.9731", "-o", path], check=True)
    return path


def simulate(build, trace, policy, deadline, start_s, mode):
    args = [os.path.join(build, "tools", "simulate"), "--trace", trace, "--policy", policy, "--deadline",
            f"{deadline:g}h", "--trace-start", f"{start_s}s", "-n", "1", "--regret", "--format", "json", "--mode",
            mode] + JOB
    run = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)["runs"][0]
    return run["cost_total"], run["optimum_cost"], run["deadline_met"]


def main(build):
    windows = list(csv.DictReader(open(os.path.join(REFERENCE, "windows.csv"))))
    reference = [json.loads(line) for line in open(os.path.join(REFERENCE, "reference_runs.jsonl"))]
    start = {(w["pair"], int(w["window"])): int(w["start_tick"]) * 600 for w in windows}
    rows = collections.defaultdict(list)  # (policy, deadline) -> [(theirs, compat, event, opt_tick, opt_s, met)]
    with tempfile.TemporaryDirectory() as tmp:
        traces = {pair: convert(build, pair, tmp) for pair in sorted({w["pair"] for w in windows})}
        for ref in reference:
            policy = POLICIES[ref["policy"]]
            s = start[(ref["pair"], ref["window"])]
            compat, opt_tick, met_c = simulate(build, traces[ref["pair"]], policy, ref["deadline"], s, "cant-be-late")
            event, opt_s, met_e = simulate(build, traces[ref["pair"]], policy, ref["deadline"], s, "event")
            rows[(policy, ref["deadline"])].append((ref["cost"], compat, event, opt_tick, opt_s, met_c and met_e))
    mean = lambda xs: sum(xs) / len(xs)
    print("| policy | deadline | theirs USD | compatibility mode USD | max abs diff | event mode USD | "
          "event - compat (mean, min..max) | deadlines met |")
    print("|---|---|---|---|---|---|---|---|")
    for (policy, deadline), r in sorted(rows.items()):
        diff = [e - c for _, c, e, _, _, _ in r]
        print(f"| {policy} | {deadline:g} h | {mean([t for t, *_ in r]):.2f} | {mean([c for _, c, *_ in r]):.2f} | "
              f"{max(abs(t - c) for t, c, *_ in r):.4f} | {mean([e for _, _, e, *_ in r]):.2f} | "
              f"{mean(diff):+.2f} ({min(diff):+.2f}..{max(diff):+.2f}) | {sum(bool(x[5]) for x in r)}/{len(r)} |")
    print()
    print("| deadline | optimum, per-tick billing USD | optimum, per-second billing USD | greedy regret (compat / event) "
          "| uniform progress regret (compat / event) |")
    print("|---|---|---|---|---|")
    for deadline in sorted({d for _, d in rows}):
        g, u = rows[("greedy", deadline)], rows[("uniform-progress", deadline)]
        regret = lambda r, i, j: mean([x[i] / x[j] - 1 for x in r])
        print(f"| {deadline:g} h | {mean([x[3] for x in g]):.2f} | {mean([x[4] for x in g]):.2f} | "
              f"{100 * regret(g, 1, 3):.1f}% / {100 * regret(g, 2, 4):.1f}% | "
              f"{100 * regret(u, 1, 3):.1f}% / {100 * regret(u, 2, 4):.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build"))

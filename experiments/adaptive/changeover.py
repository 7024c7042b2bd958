#!/usr/bin/python3
"""How `adaptive`'s reserve and confirmation follow the changeover d (README.md#changeover in this folder).

Train: on the 9 traces of the 02-15-2023 recording campaign (no public harness scores on them), a grid of
confirm = k x d (k = 1, 5/3, 2.5) x reserve in {0.03, 0.06, 0.10, 0.15, 0.20} at d = 0.02, 0.05, 0.10, 0.20 h,
deadlines 52 and 70 h (the ADRS-Leaderboard's), the Can't Be Late mode, 300 random windows per trace; the ranking by
mean cost over both deadlines (every configuration met every deadline).
Test: on the 4 traces of the 10-26-2022 campaign (the public harnesses' recordings, other windows), the rule chosen
(confirm = 5/3 d, reserve = 0.15 sqrt(d / 0.2 h)) against the former constants and uniform progress.
Every `adaptive` here is its rules (plan=off): in the Can't Be Late mode `adaptive` otherwise plays `planned`.

usage: experiments/adaptive/changeover.py [--spotsim build/tools/spotsim] [--out DIR] [--part train|test|both]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.normpath(os.path.join(HERE, "..", "traces", "cbl"))
CHANGEOVERS_S = (72, 180, 360, 720)
DEADLINES = (52, 70)
RULES = "adaptive:plan=off"  # the rules studied here (docs/policies.md#adaptive)
FORMER = "adaptive:reserve=0.15,confirm=20m,plan=off"


def traces(campaign):
    return sorted(os.path.join(TRACES, f) for f in os.listdir(TRACES) if campaign in f)


def sweep(args, name, startup_s, policies, trace_files):
    """Mean cost per (policy, deadline) over the traces (each trace weighs the same), and the least deadline-met rate."""
    out = os.path.join(args.out, "{}-{}".format(name, startup_s))
    spec = {"format": "spotsim-experiment", "version": 1, "name": "{} d={} s".format(name, startup_s), "seed": 2024,
            "replications": 300, "traces": trace_files, "policies": policies, "checkpoints": ["continuous"],
            "mode": "cant-be-late", "chunk_runs": 100000,
            "job": {"name": "48h", "work_hours": 48, "restore_s": 0, "checkpoint_write_s": 0, "startup_s": startup_s},
            "job_grid": {"deadline_hours": list(DEADLINES)}}
    shutil.rmtree(out, ignore_errors=True)
    with open(out + ".json", "w") as f:
        json.dump(spec, f, indent=1)
    subprocess.run([args.spotsim, "sweep", out + ".json", "--out", out, "-q", "--threads", "2"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    cost, met = {}, {}
    for c in summary["configurations"]:
        key = (c["policy"], int(float(c["job"].split("=")[1])))
        cost.setdefault(key, []).append(c["summary"]["cost_total"]["mean"])
        met[key] = min(met.get(key, 1.0), c["summary"]["deadline_met"]["mean"])
    return {k: sum(v) / len(v) for k, v in cost.items()}, met


def train(args):
    lines = ["| d | best (confirm, reserve) on 2023 | its mean cost 52 h / 70 h | the rule chosen | former constants | "
             "uniform progress |", "|---|---|---|---|---|---|"]
    for d in CHANGEOVERS_S:
        grid = ["adaptive:confirm={}s,reserve={},plan=off".format(round(k * d), r)
                for k in (1.0, 5.0 / 3.0, 2.5) for r in (0.03, 0.06, 0.10, 0.15, 0.20)]
        former, up = FORMER, "uniform-progress"
        cost, met = sweep(args, "train", d, [up, former, RULES] + grid, traces("02-15-2023"))
        assert all(v == 1.0 for v in met.values()), "a configuration missed a deadline"
        best = min(grid, key=lambda p: sum(cost[(p, R)] for R in DEADLINES))
        both = lambda p: " / ".join("{:.2f}".format(cost[(p, R)]) for R in DEADLINES)
        lines.append("| {:.2f} h | `{}` | {} | {} | {} | {} |".format(
            d / 3600, best.split(":")[1].replace(",plan=off", ""), both(best), both(RULES), both(former), both(up)))
        print(lines[-1], flush=True)
    return lines


def test(args):
    lines = ["| d | deadline | uniform progress | former constants | changeover rule | change |", "|---|---|---|---|---|---|"]
    for d in CHANGEOVERS_S:
        former, up = FORMER, "uniform-progress"
        cost, met = sweep(args, "test", d, [up, former, RULES], traces("10-26-2022"))
        assert all(v == 1.0 for v in met.values()), "a configuration missed a deadline"
        for R in DEADLINES:
            new, old = cost[(RULES, R)], cost[(former, R)]
            lines.append("| {:.2f} h | {} h | {:.2f} | {:.2f} | {:.2f} | {:+.1f}% |".format(
                d / 3600, R, cost[(up, R)], old, new, 100 * (new / old - 1)))
            print(lines[-1], flush=True)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spotsim", default=os.path.join(HERE, "..", "..", "build", "tools", "spotsim"))
    parser.add_argument("--out", default="/tmp/adaptive-changeover")
    parser.add_argument("--part", default="both", choices=["train", "test", "both"])
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tables = []
    if args.part in ("train", "both"):
        tables += ["Train (02-15-2023, 9 traces):", ""] + train(args) + [""]
    if args.part in ("test", "both"):
        tables += ["Test (10-26-2022, 4 traces):", ""] + test(args) + [""]
    with open(os.path.join(args.out, "tables.md"), "w") as f:
        f.write("\n".join(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Multi-region policies in SkyNomad's own setting (Li et al., NSDI'27; artifact andylizf/skynomad-artifact @ 62b9aaa,
research/data/region_scaling.csv and research/data/v100.csv), at every region count, with regret to spotsim's exact
optimum across regions, beside SkyNomad's published means (experiments/skynomad/published.csv).

The setting, as the artifact's CSVs record it:
  gcp-h100: task 43.19 h, deadline 1.2x, 50 GB checkpoint, 0.2 h changeover; zones added one at a time in the
            artifact's "Progressive_N" order; 6 windows back to back from the start of the recording (window k starts
            at k x deadline). Prices are the 8-GPU a3-highgpu-8g's, as SkyNomad bills: the shipped trace is per GPU
            (the 8-GPU price / 8), so this script writes a copy with every price x 8 (egress unchanged: 50 GB).
  aws-v100: task 39.94 h, deadline 1.5x, 50 GB, 0.2 h; us-east-1c, us-east-2b, us-west-2a (1..3 of them); the 5
            windows of the artifact's v100.csv.
--windows test runs exactly those windows (the public comparison: report only, never tune on it). --windows train
runs windows no SkyNomad evaluation uses, to design and choose parameters: starts offset by half a deadline from
the test windows, and other deadlines (gcp 1.1x and 1.3x, aws 1.3x), on the same zone sets.

usage: experiments/skynomad_region_scaling.py [--setting gcp-h100|aws-v100|all] [--windows test|train]
           [--policy SPEC]... [--counts 1,4,13] [--bin build/tools/spotsim] [--csv OUT.csv]
Prints a markdown table per setting: mean cost and mean regret per region count and policy, beside SkyNomad's
published means (test windows) and its own policy run in its own simulator on the same windows, the whole bill
(experiments/skynomad/artifact_policy_{test,wide}.csv from experiments/skynomad/run_artifact_policy.py), then per
policy the windows it is more than 1% cheaper and dearer than SkyNomad's whole bill in.
"""
import argparse
import collections
import concurrent.futures
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GCP_ORDER = ["asia-southeast1-c", "asia-south2-b", "us-west1-b", "europe-west3-c", "us-west1-a", "us-east4-a",
             "europe-west1-c", "us-central1-c", "us-central1-b", "asia-southeast1-b", "us-central1-a", "us-east5-a",
             "us-east4-b"]
AWS_ORDER = ["us-east-1c", "us-east-2b", "us-west-2a"]
SETTINGS = {
    "gcp-h100": {"zones": GCP_ORDER, "work_h": 43.19444444444445, "ratio": 1.2, "test_starts": None, "windows": 6,
                 "train_ratios": (1.1, 1.2, 1.3), "span_h": 352.0, "wide_first": 3.0, "wide_every": 6.0},
    "aws-v100": {"zones": AWS_ORDER, "work_h": 39.93888888888889, "ratio": 1.5,
                 "test_starts": [179.725, 299.5416666666667, 419.35833333333335, 479.26666666666665,
                                 838.7166666666667], "windows": 5, "train_ratios": (1.3, 1.5), "span_h": 1091.0, "wide_first": 12.0,
                 "wide_every": 24.0},
}
POLICIES = ["on-demand", "failover", "eager-next-region", "uniform-progress-multi", "cost-aware"]


def gcp_trace_x8(directory):
    """The shipped gcp-h100-13-zones with every price x 8 (the 8-GPU instance SkyNomad prices)."""
    trace = json.load(open(os.path.join(REPO, "traces", "library", "gcp-h100-13-zones.json")))
    for zone in trace["zones"]:
        zone["on_demand_price_per_hour"] *= 8
        spot = zone["spot"]
        if isinstance(spot.get("price_per_hour"), (int, float)):
            spot["price_per_hour"] *= 8
        else:
            sys.exit("gcp-h100-13-zones: expected a constant spot price per zone")
    path = os.path.join(directory, "gcp-h100-13-zones-x8.json")
    json.dump(trace, open(path, "w"))
    return path


def windows(setting, which):
    """(deadline ratio, start hours) of each window."""
    s = SETTINGS[setting]
    if which == "test":
        starts = s["test_starts"] or [k * s["ratio"] * s["work_h"] for k in range(s["windows"])]
        return [(s["ratio"], t) for t in starts]
    out = []
    if which == "wide":  # many overlapping windows, none within 2 h of a published start: less noise to choose on
        tests = [t for _, t in windows(setting, "test")]
        last = s["span_h"] - max(s["train_ratios"]) * s["work_h"]
        starts = [t for t in (s["wide_first"] + k * s["wide_every"] for k in range(1000)) if t <= last]
        starts = [t for t in starts if all(abs(t - u) >= 2.0 for u in tests)]
        return [(ratio, t) for ratio in s["train_ratios"] for t in starts]
    for ratio in s["train_ratios"]:
        if s["test_starts"]:  # between and after the published windows, away from them
            starts = [60.0, 240.0, 360.0, 600.0, 720.0, 960.0]
        else:
            starts = [(k + 0.5) * s["ratio"] * s["work_h"] for k in range(s["windows"] - 1)]
        out += [(ratio, t) for t in starts]
    return out


def run(binary, trace, zones, policy, work_h, ratio, start_h, deadline_s=None, extra=()):
    """One window's CSV row; the deadline is ratio x work unless `deadline_s` is given; `extra`: more options."""
    deadline_s = ratio * work_h * 3600 if deadline_s is None else deadline_s
    command = [binary, "simulate", "-t", trace, "--zones", ",".join(zones), "-p", policy, "-c", "continuous",
               "--trace-start", f"{start_h * 3600:.0f}s", "--work", f"{work_h * 3600:.0f}s",
               "--deadline", f"{deadline_s:.0f}s", "--startup", "720s", "--restore", "0s",
               "--checkpoint-write", "0s", "--checkpoint-size", "50GB", "-n", "1", "--threads", "1", "--regret",
               "-f", "csv", "-q", *extra]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}\n{result.stderr}")
    return next(csv.DictReader(io.StringIO(result.stdout)))


def write_rows(path, rows):
    """Every run as a CSV row (the keys of the first row are the columns)."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def published():
    rows = csv.DictReader(open(os.path.join(REPO, "experiments", "skynomad", "published.csv")))
    return {(r["setting"], int(r["regions"])): r for r in rows}


def window_key(regions, ratio, start_h):
    """How a window is matched between spotsim's runs and the artifact's: (regions, deadline ratio, start hour to
    0.01 h; the artifact's CSVs round starts to 4 decimals)."""
    return int(regions), float(ratio), round(float(start_h), 2)


def artifact_runs(name, setting):
    """experiments/skynomad/NAME.csv, as experiments/skynomad/run_artifact_policy.py writes it, for one setting: its
    rows by window_key."""
    path = os.path.join(REPO, "experiments", "skynomad", f"{name}.csv")
    return {window_key(r["regions"], r["ratio"], r["start_h"]): r for r in csv.DictReader(open(path))
            if r["setting"] == setting}


def skynomad_windows(setting, which):
    """SkyNomad's own policy run in its own simulator on these windows (experiments/skynomad/artifact_policy_{test,
    wide}.csv, written by experiments/skynomad/run_artifact_policy.py; on the test windows the runs reproduce its
    published costs): its whole bill per (regions, deadline ratio, start hour rounded to 0.01), the tick that
    completes the task included (its published costs leave that tick out: docs/validation.md#skynomad-optima).
    Empty for the train windows."""
    if which not in ("test", "wide"):
        return {}
    return {k: float(r["cost_full_usd"]) if r["deadline_met"] == "1" else float("inf")
            for k, r in artifact_runs(f"artifact_policy_{which}", setting).items()}


def window_by_window(cells, policies, theirs, tie=0.01):
    """Per policy: windows more than `tie` cheaper and dearer than SkyNomad's whole bill for the same window (within
    it, a tie: the simulators' accounting differs a little, docs/validation.md#skynomad-optima)."""
    lines = []
    for p in policies:
        counts = collections.OrderedDict()  # regions -> [cheaper, dearer, windows]
        for n, by_policy in cells.items():
            for r in by_policy[p]:
                cost = theirs.get(window_key(n, r["ratio"], r["start_h"]))
                if cost is None:
                    continue
                c = counts.setdefault(n, [0, 0, 0])
                c[0] += r["cost"] < (1 - tie) * cost
                c[1] += r["cost"] > (1 + tie) * cost
                c[2] += 1
        if counts:
            cheaper, dearer, total = (sum(c[i] for c in counts.values()) for i in range(3))
            per_count = ", ".join(f"{n}: {c[0]}/{c[1]}" for n, c in counts.items())
            lines.append(f"{p}: cheaper than SkyNomad by over {100 * tie:.0f}% in {cheaper} of {total} windows, "
                         f"dearer in {dearer} (cheaper/dearer per region count: {per_count})")
    return lines


def optima_compared(setting, cells):
    """SkyNomad's optimum run in its own simulator (experiments/skynomad/artifact_optimum_test.csv) against spotsim's
    on the same windows: where its whole bill is below spotsim's optimum and whether it moved there, and the tick its
    published costs leave out (docs/validation.md#skynomad-optima)."""
    runs = artifact_runs("artifact_optimum_test", setting)
    below = moved = 0
    worst = 0.0
    ticks = []
    for n, by_policy in cells.items():
        for row in next(iter(by_policy.values())):
            r = runs[window_key(n, row["ratio"], row["start_h"])]
            full = float(r["cost_full_usd"])
            ticks.append(full - float(r["cost_usd"]))
            if full < row["optimum"]:
                below += 1
                moved += int(r["migrations"]) > 0
                worst = max(worst, row["optimum"] / full - 1)
    return (f"SkyNomad's optimum, its whole bill: below spotsim's optimum in {below} of {len(ticks)} windows (in "
            f"{moved} of them it moves), by at most {100 * worst:.2f}%; the tick its published costs leave out: "
            f"{sum(ticks) / len(ticks):.2f} USD on average, at most {max(ticks):.2f}")


def skynomad_cell(n, rows, theirs):
    """SkyNomad's mean cost over this cell's windows and its mean regret to spotsim's optimum of each window, or
    None if it was not run on all of them."""
    costs = [theirs.get(window_key(n, r["ratio"], r["start_h"])) for r in rows]
    if not costs or None in costs:
        return None
    regret = sum(c / r["optimum"] - 1 for c, r in zip(costs, rows)) / len(rows)
    return sum(costs) / len(costs), regret


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setting", default="all", choices=["all"] + list(SETTINGS))
    parser.add_argument("--windows", default="test", choices=["test", "train", "wide"])
    parser.add_argument("--policy", action="append", help="policy spec (repeatable) [default: the five baselines]")
    parser.add_argument("--counts", help="region counts to run, e.g. 1,4,13 [default: all]")
    parser.add_argument("--bin", default=os.path.join(REPO, "build", "tools", "spotsim"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once [default: all cores]")
    parser.add_argument("--csv", help="also write every run (setting, regions, ratio, start, policy, metrics)")
    args = parser.parse_args()
    policies = args.policy or POLICIES
    reference = published()
    all_rows = []
    with tempfile.TemporaryDirectory() as tmp:
        traces = {"gcp-h100": gcp_trace_x8(tmp), "aws-v100": "aws-v100-9-zones"}
        for setting in SETTINGS if args.setting == "all" else [args.setting]:
            s = SETTINGS[setting]
            counts = range(1, len(s["zones"]) + 1)
            if args.counts:
                counts = [int(c) for c in args.counts.split(",") if int(c) <= len(s["zones"])]
            cells = collections.OrderedDict()
            jobs = [(n, ratio, start, policy) for n in counts for ratio, start in windows(setting, args.windows)
                    for policy in policies]
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                results = pool.map(lambda j: run(args.bin, traces[setting], s["zones"][:j[0]], j[3], s["work_h"],
                                                 j[1], j[2]), jobs)
                for (n, ratio, start, policy), r in zip(jobs, results):
                    row = {"setting": setting, "regions": n, "ratio": ratio, "start_h": round(start, 4),
                           "policy": policy, "cost": float(r["cost_total"]), "optimum": float(r["optimum_cost"]),
                           "regret": float(r["regret"]), "migrations": int(r["migrations"]),
                           "egress": float(r["cost_egress"]), "deadline_met": int(r["deadline_met"])}
                    all_rows.append(row)
                    cells.setdefault(n, collections.defaultdict(list))[policy].append(row)
            theirs = skynomad_windows(setting, args.windows)
            print(f"\n{setting}, {args.windows} windows\n")
            print("| regions | optimum $ | SkyNomad's optimum $ | SkyNomad $ (regret to its optimum) | "
                  "SkyNomad's whole bill $ (regret to spotsim's optimum) | " +
                  " | ".join(f"{p} $ (regret)" for p in policies) + " |")
            print("|---" * (5 + len(policies)) + "|")
            worst = collections.defaultdict(float)
            for n, by_policy in cells.items():
                rows = next(iter(by_policy.values()))
                optimum = sum(r["optimum"] for r in rows) / len(rows)
                ref = reference.get((setting, n)) if args.windows == "test" else None
                sky = "" if ref is None else (f"{float(ref['skynomad_usd']):.2f} "
                                              f"({100 * (float(ref['skynomad_usd']) / float(ref['optimum_usd']) - 1):.1f}%)")
                their_optimum = "" if ref is None else f"{float(ref['optimum_usd']):.2f}"
                mine = skynomad_cell(n, rows, theirs)
                mine = "" if mine is None else f"{mine[0]:.2f} ({100 * mine[1]:.1f}%)"
                line = f"| {n} | {optimum:.2f} | {their_optimum} | {sky} | {mine} |"
                for p in policies:
                    rs = by_policy[p]
                    regret = sum(r["regret"] for r in rs) / len(rs)
                    worst[p] = max(worst[p], regret)
                    missed = sum(1 - r["deadline_met"] for r in rs)
                    line += f" {sum(r['cost'] for r in rs) / len(rs):.2f} ({100 * regret:.1f}%" + (
                        f", {missed} missed" if missed else "") + ") |"
                print(line)
            print("\nWorst mean regret over region counts: " +
                  ", ".join(f"{p} {100 * v:.1f}%" for p, v in worst.items()))
            if theirs:
                for line in window_by_window(cells, policies, theirs):
                    print("Window by window, " + line)
            if args.windows == "test":
                print(optima_compared(setting, cells))
    if args.csv:
        write_rows(args.csv, all_rows)


if __name__ == "__main__":
    main()

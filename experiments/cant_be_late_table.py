#!/usr/bin/python3
"""Turns the runs.csv of a Can't Be Late single-zone sweep (experiments/specs/cant-be-late-single-zone.json) into the
per-deadline markdown table of docs/validation.md: for each policy, the cost saving against on-demand and the regret
to the offline optimum, each with its 95% interval over every (trace, window) run, the fraction of deadlines met, and
the saving of the optimum itself. --traces 2022|2023 keeps only the traces recorded that year.

usage: experiments/cant_be_late_table.py SWEEP_DIR [--traces 2022|2023]
"""
import collections
import csv
import math
import os
import sys

POLICIES = ("greedy", "uniform-progress", "adaptive")
T975 = 1.96  # the sample sizes here are in the thousands


def mean_ci(values):
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return m, T975 * sd / math.sqrt(n)


def job_key(label):
    """'deadline_hours=52,startup_s=720' -> (52.0, 720.0): sorts numerically, prints as '52 h, d 0.2 h'."""
    return tuple(float(part.split("=")[1]) for part in label.split(","))


def job_text(key):
    return f"{key[0]:g} h" + (f", d {key[1] / 3600:g} h" if len(key) > 1 else "")


def main(directory, year):
    runs = collections.defaultdict(dict)  # (deadline, trace, replication) -> policy -> row
    for row in csv.DictReader(open(os.path.join(directory, "runs.csv"))):
        if year and f"-{year}-" not in row["trace"]:
            continue
        runs[(row["job"], row["trace"], row["replication"])][row["policy"].split(":")[0]] = row
    by_deadline = collections.defaultdict(lambda: collections.defaultdict(list))
    traces = set()
    for (job, trace, _), by_policy in runs.items():
        traces.add(trace)
        od = float(by_policy["on-demand"]["cost_total"])
        cell = by_deadline[job_key(job)]
        cell["optimum"].append(1.0 - float(by_policy["on-demand"]["optimum_cost"]) / od)
        for p in POLICIES:
            if p not in by_policy:
                continue
            r = by_policy[p]
            cell[p + " saving"].append(1.0 - float(r["cost_total"]) / od)
            cell[p + " regret"].append(float(r["regret"]))
            cell[p + " met"].append(float(r["deadline_met"]))
    policies = [p for p in POLICIES if any(p + " saving" in c for c in by_deadline.values())]
    print(f"{len(traces)} traces, {len(runs) // max(len(by_deadline), 1)} windows per deadline\n")
    print("| job | " + " | ".join(f"{p} saving" for p in policies) + " | optimum saving | " +
          " | ".join(f"{p} regret" for p in policies) + " | deadlines met (min) |")
    print("|---|" + "---|" * (2 * len(policies) + 2))
    totals = collections.defaultdict(list)
    for deadline in sorted(by_deadline):
        cell = by_deadline[deadline]
        fmt = lambda key: "{:.1f}% ± {:.1f}".format(*(100 * x for x in mean_ci(cell[key])))
        met = min(sum(cell[p + " met"]) / len(cell[p + " met"]) for p in policies)
        print(f"| {job_text(deadline)} | " + " | ".join(fmt(p + " saving") for p in policies) + f" | {fmt('optimum')} | " +
              " | ".join(fmt(p + " regret") for p in policies) + f" | {met:.3f} |")
        for p in policies:
            totals[p + " saving"].append(mean_ci(cell[p + " saving"])[0])
            totals[p + " regret"].append(mean_ci(cell[p + " regret"])[0])
        totals["optimum"].append(mean_ci(cell["optimum"])[0])
    avg = lambda key: f"{100 * sum(totals[key]) / len(totals[key]):.1f}%"
    print("| mean | " + " | ".join(avg(p + " saving") for p in policies) + f" | {avg('optimum')} | " +
          " | ".join(avg(p + " regret") for p in policies) + " | |")


if __name__ == "__main__":
    args = sys.argv[1:]
    year = None
    if "--traces" in args:
        i = args.index("--traces")
        year = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    main(args[0], year)

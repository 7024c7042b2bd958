#!/usr/bin/python3
"""Turns the runs.csv of a multi-region sweep (experiments/specs/multi-region-*.json) into the markdown tables of
docs/validation.md: per trace (or zone set) and job, for each policy the mean cost, the regret to the exact offline
optimum across regions (mean and 95% interval over the windows), the mean number of migrations, the share of the
cost paid as egress, and the fraction of deadlines met; the optimum's own mean cost is on each row's first line.

usage: experiments/multi_region_table.py SWEEP_DIR
"""
import collections
import csv
import math
import os
import sys

POLICIES = ("on-demand", "failover", "eager-next-region", "uniform-progress-multi", "cost-aware")
T975 = 1.96  # normal quantile; each cell has 40-60 windows, so the interval is approximate (t would widen it ~2%)


def mean_ci(values):
    n = len(values)
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return m, T975 * sd / math.sqrt(n)


def main(directory):
    cells = collections.OrderedDict()  # (trace, job) -> policy -> list of rows
    for row in csv.DictReader(open(os.path.join(directory, "runs.csv"))):
        policy = row["policy"].split(":")[0]
        cells.setdefault((row["trace"], row["job"]), collections.defaultdict(list))[policy].append(row)
    print("| zones | job | optimum $ | policy | cost $ | regret (95% CI) | migrations | egress share | deadlines met |")
    print("|---|---|---|---|---|---|---|---|---|")
    averages = collections.defaultdict(list)
    for (trace, job), by_policy in cells.items():
        any_rows = next(iter(by_policy.values()))
        optimum = sum(float(r["optimum_cost"]) for r in any_rows) / len(any_rows)
        first = True
        for policy in POLICIES:
            rows = by_policy.get(policy)
            if not rows:
                continue
            cost = sum(float(r["cost_total"]) for r in rows) / len(rows)
            regret, half = mean_ci([float(r["regret"]) for r in rows])
            moves = sum(float(r["migrations"]) for r in rows) / len(rows)
            egress = sum(float(r["cost_egress"]) for r in rows) / max(sum(float(r["cost_total"]) for r in rows), 1e-12)
            met = sum(float(r["deadline_met"]) for r in rows) / len(rows)
            averages[policy].append(regret)
            lead = f"| {trace} | {job} | {optimum:.2f} " if first else "| | | "
            first = False
            print(f"{lead}| {policy} | {cost:.2f} | {100 * regret:.1f}% ± {100 * half:.1f} | {moves:.2f} | "
                  f"{100 * egress:.1f}% | {met:.3f} |")
    print("\nMean regret over all rows: " + ", ".join(
        f"{p} {100 * sum(v) / len(v):.1f}%" for p, v in averages.items() if p != "on-demand"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

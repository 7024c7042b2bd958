#!/usr/bin/python3
"""Per-deadline savings table of a `spotsim sweep` of experiments/adaptive/*.json (see README.md there).

For each deadline: the mean saving against on-demand, 1 - cost / on-demand cost, of each policy, averaged over
the sweep's traces (each trace weighs the same) with its 95% interval; the paired difference of each policy to
uniform-progress with its 95% interval; and the fraction of deadlines met.

Intervals. Within a trace the replications are independent windows (n each) and traces use independent seeds, so
the variance of the average over T traces is sum(sd_t^2 / n_t) / T^2 (normal quantile 1.96; n = 300 per trace).
Every policy sees the same windows (common random numbers), so the difference of two policies is taken per
replication first (paired): much tighter than the difference of the two intervals.

usage: experiments/adaptive/adaptive_table.py SWEEP_DIR/runs.csv [--title TEXT]
"""
import argparse
import collections
import csv
import math
import statistics

Z95 = 1.959963984540054
FIRST = ("uniform-progress", "greedy")


def load(path):
    """runs.csv -> {(job, trace, policy): {replication: (cost, deadline met)}}"""
    runs = collections.defaultdict(dict)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            runs[(row["job"], row["trace"], row["policy"])][int(row["replication"])] = (
                float(row["cost_total"]), float(row["deadline_met"]))
    return runs


def jobs_traces_policies(runs):
    jobs = sorted({k[0] for k in runs}, key=lambda j: float(j.split("=")[1]))
    traces = sorted({k[1] for k in runs})
    policies = []
    for k in runs:
        if k[2] not in policies:
            policies.append(k[2])
    return jobs, traces, policies


def savings(runs, job, traces, policy):
    """One list of per-replication savings per trace."""
    out = []
    for t in traces:
        od = statistics.fmean(c for c, _ in runs[(job, t, "on-demand")].values())
        r = runs[(job, t, policy)]
        out.append([1.0 - r[i][0] / od for i in sorted(r)])
    return out


def mean_ci(per_trace):
    """(mean over traces of the trace means, 95% half width)"""
    var = sum((statistics.variance(v) if len(v) > 1 else 0.0) / len(v) for v in per_trace)
    return statistics.fmean(statistics.fmean(v) for v in per_trace), Z95 * math.sqrt(var) / len(per_trace)


def met_fraction(runs, job, traces, policy):
    return statistics.fmean(m for t in traces for _, m in runs[(job, t, policy)].values())


def mean_saving(runs, policy):
    """Mean over deadlines of the mean saving over traces, and the smallest deadline-met fraction."""
    jobs, traces, _ = jobs_traces_policies(runs)
    s = [mean_ci(savings(runs, j, traces, policy))[0] for j in jobs]
    return statistics.fmean(s), min(met_fraction(runs, j, traces, policy) for j in jobs)


def table(runs, title="", label=None):
    """Markdown table; `label` renames policies in the header (e.g. a long adaptive spec)."""
    label = label or {}
    jobs, traces, policies = jobs_traces_policies(runs)
    shown = [p for p in FIRST if p in policies] + [p for p in policies if p not in FIRST and p != "on-demand"]
    paired = [p for p in shown if p != "uniform-progress"]
    name = lambda p: label.get(p, p)
    lines = []
    if title:
        lines.append(f"### {title}\n")
    lines.append(f"{len(traces)} traces ({', '.join(traces)}); per cell: mean saving vs on-demand in % ± 95% "
                 "half-width; paired differences in percentage points.\n")
    head = ["deadline"] + [f"{name(p)} saving" for p in shown]
    head += [f"{name(p)} − uniform-progress (paired)" for p in paired]
    head += ["deadlines met (" + ", ".join(name(p) for p in shown) + ")"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    overall = collections.defaultdict(list)
    for job in jobs:
        per = {p: savings(runs, job, traces, p) for p in shown}
        cells = []
        for p in shown:
            m, h = mean_ci(per[p])
            overall[p].append(m)
            cells.append(f"{100 * m:.1f} ± {100 * h:.1f}")
        for p in paired:
            diff = [[a - b for a, b in zip(x, y)] for x, y in zip(per[p], per["uniform-progress"])]
            m, h = mean_ci(diff)
            overall[p + " diff"].append(m)
            cells.append(f"{100 * m:+.1f} ± {100 * h:.1f}")
        met = ", ".join(f"{met_fraction(runs, job, traces, p):.3f}" for p in shown)
        lines.append(f"| {job.split('=')[1]} h | " + " | ".join(cells) + f" | {met} |")
    cells = [f"**{100 * statistics.fmean(overall[p]):.1f}**" for p in shown]
    cells += [f"**{100 * statistics.fmean(overall[p + ' diff']):+.1f}**" for p in paired]
    lines.append("| mean | " + " | ".join(cells) + " | |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    print(table(load(args.runs), args.title))


if __name__ == "__main__":
    main()

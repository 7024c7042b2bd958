#!/usr/bin/env python3
"""Per-zone capacity of a spotsim trace whose zones record availability COUNTS (docs/trace-format.md): the
time-weighted mean count, and the share of the recording with at least one instance and with at least TOP
(default: the trace's largest count, e.g. 16 of 16 requested). A Markdown table, for docs/traces.md.

Read from the trace JSON alone, independently of spotsim's C++ reader, so that it also cross-checks the importer.

usage: count_trace_summary.py TRACE.json [--top N]
"""
import argparse
import json
import sys


def steps(availability, span):
    """(count, duration in seconds) of every step of one zone's availability series."""
    counts = availability["counts"]
    if "step_s" in availability:
        return [(c, availability["step_s"]) for c in counts]
    times = availability["times_s"] + [span]
    return [(c, times[i + 1] - times[i]) for i, c in enumerate(counts)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("--top", type=float, help="the count called full [default: the largest count]")
    args = parser.parse_args()
    with open(args.trace, encoding="utf-8") as f:
        trace = json.load(f)
    if "span_s" not in trace or not any("availability" in z["spot"] for z in trace["zones"]):
        sys.exit(f"{args.trace}: no zone records availability counts")
    span = trace["span_s"]
    zones = [(z["name"], steps(z["spot"]["availability"], span)) for z in trace["zones"]
             if "availability" in z["spot"]]
    top = args.top if args.top is not None else max(c for _, s in zones for c, _ in s)
    print(f"| zone | mean count | % of time >= 1 | % of time >= {top:g} |")
    print("|---|---|---|---|")
    total = [0.0, 0.0, 0.0]
    for name, series in zones:
        mean = sum(c * d for c, d in series) / span
        some = sum(d for c, d in series if c >= 1) / span
        full = sum(d for c, d in series if c >= top) / span
        total = [total[0] + mean, total[1] + some, total[2] + full]
        print(f"| {name} | {mean:.2f} | {100 * some:.1f} | {100 * full:.1f} |")
    n = len(zones)
    print(f"| all {n} zones | {total[0] / n:.2f} | {100 * total[1] / n:.1f} | {100 * total[2] / n:.1f} |")


if __name__ == "__main__":
    main()

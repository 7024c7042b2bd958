#!/usr/bin/env python3
"""Where a multi-region policy's money goes beside the optimum's, in SkyNomad's GCP H100 setting.

For each region count and window of experiments/skynomad_region_scaling.py, runs the policy and `optimal-offline`
(the multi-region optimum played out, moves included: docs/policies.md#optimal-offline) with a timeline each, and
prints per policy the mean over windows of: cost and how far its mean is above the optimum's, hours held per purchase on the dear zone (spot over
twice the cheapest zone's price: asia-south2-b in this setting) and on the rest, hours waited, hours of changeover
(start-ups, transfers), moves and egress, and the slack left unused at the finish.

The optimum's schedule is exact for whole-minute work and deadlines (at SkyNomad's 43.19 h its back-pointers do not
fit in memory on the 1 s grid the job needs, and `optimal-offline` plays a schedule for work rounded up to a coarser
grid, a little above the optimum): the job is 43.17 h (2590 min), deadlines rounded to the minute.

usage: experiments/skynomad_breakdown.py [--windows wide|train|test] [--counts 4,5] [--policy cost-aware]
"""
import argparse
import collections
import concurrent.futures
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skynomad_region_scaling as scaling  # noqa: E402

WORK_MINUTES = 2590


def run(binary, trace, zones, policy, ratio, start_h, timeline):
    deadline_minutes = round(ratio * WORK_MINUTES)
    row = scaling.run(binary, trace, zones, policy, WORK_MINUTES / 60, ratio, start_h,
                      deadline_s=deadline_minutes * 60, extra=["--timeline", timeline])
    events = [json.loads(line) for line in open(timeline)]
    os.remove(timeline)
    held = collections.defaultdict(float)  # (purchase, zone name) -> hours held
    names = {z["index"]: z["name"] for z in events[0]["zones"]}
    for before, after in zip(events[1:], events[2:]):
        if before["purchase"] != "none":
            held[(before["purchase"], names.get(before["zone"], "-"))] += after["t_hours"] - before["t_hours"]
    row["slack_left"] = deadline_minutes / 60 - float(row["completion_hours"])
    return row, held


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--windows", default="wide", choices=["test", "train", "wide"])
    parser.add_argument("--counts", default="4,5", help="region counts, e.g. 4,5")
    parser.add_argument("--policy", default="cost-aware")
    parser.add_argument("--bin", default=os.path.join(scaling.REPO, "build", "tools", "spotsim"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    setting = scaling.SETTINGS["gcp-h100"]
    with tempfile.TemporaryDirectory() as tmp:
        trace = scaling.gcp_trace_x8(tmp)
        prices = {z["name"]: z["spot"]["price_per_hour"] for z in json.load(open(trace))["zones"]}
        policies = ["optimal-offline", args.policy]
        for n in [int(c) for c in args.counts.split(",")]:
            zones = setting["zones"][:n]
            cheapest = min(prices[z] for z in zones)
            dear = {z for z in zones if prices[z] > 2 * cheapest}
            jobs = [(ratio, start, p) for ratio, start in scaling.windows("gcp-h100", args.windows) for p in policies]
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                results = list(pool.map(lambda j: run(args.bin, trace, zones, j[2], j[0], j[1],
                                                      os.path.join(tmp, f"{j[0]}-{j[1]}-{j[2]}.jsonl")), jobs))
            print(f"\n{n} regions ({', '.join(zones)}; dear: {', '.join(sorted(dear)) or 'none'}), "
                  f"{len(jobs) // len(policies)} {args.windows} windows, means per window\n")
            print("| policy | cost $ | above the optimum | dear spot h | other spot h | on-demand h | waiting h | changeover h "
                  "| moves | egress $ | slack left h | late |")
            print("|---" * 12 + "|")
            for policy in policies:
                rows = [(r, h) for (_, _, p), (r, h) in zip(jobs, results) if p == policy]
                k = len(rows)

                def mean(f):
                    return sum(f(r, h) for r, h in rows) / k

                cost = mean(lambda r, h: float(r["cost_total"]))
                optimum = mean(lambda r, h: float(r["optimum_cost"]))
                dear_h = mean(lambda r, h: sum(v for (kind, z), v in h.items() if kind == "spot" and z in dear))
                spot_h = mean(lambda r, h: sum(v for (kind, z), v in h.items() if kind == "spot")) - dear_h
                print(f"| {policy} | {cost:.0f} | {100 * (cost / optimum - 1):.1f}% | {dear_h:.2f} | {spot_h:.2f} | "
                      f"{mean(lambda r, h: float(r['on_demand_hours'])):.2f} | "
                      f"{mean(lambda r, h: float(r['wait_hours'])):.2f} | "
                      f"{mean(lambda r, h: float(r['startup_hours']) + float(r['migration_hours'])):.2f} | "
                      f"{mean(lambda r, h: int(r['migrations'])):.1f} | "
                      f"{mean(lambda r, h: float(r['cost_egress'])):.1f} | "
                      f"{mean(lambda r, h: r['slack_left']):.2f} | "
                      f"{sum(1 - int(r['deadline_met']) for r, _ in rows)} |")


if __name__ == "__main__":
    main()

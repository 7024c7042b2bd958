#!/usr/bin/env python3
"""Cut a recorded trace into one trace file per window, and write a sweep spec that runs them all.

This is how a user reproducing the Can't Be Late paper lays out its windows: each window its own file, starting at
its own time zero. The speed issue (32) times `spotsim sweep` on such a layout as a whole process; this script builds
it from the committed recording so the figure is regenerated, not remembered.

    bench/window_files.py --trace experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json \\
        --windows 300 --out /tmp/windows [--deadlines 52 ...] [--window-hours H] [--policy greedy] [--mode ...]

Windows start on ticks, evenly spaced over the part of the recording where a whole window fits. A window file keeps
the recording's zones, prices, billing and tick; its availability steps are the recording's, shifted by the start,
with the state at the start as its first step.
"""
import argparse
import json
import os
import sys


def cut_series(series, start, end):
    """The step series {times_s, counts} restricted to [start, end), shifted to start at 0."""
    times, counts = series["times_s"], series["counts"]
    state = None
    out_t, out_c = [], []
    for t, c in zip(times, counts):
        if t <= start:
            state = c
            continue
        if t >= end:
            break
        if not out_t:
            out_t.append(0.0)
            out_c.append(state if state is not None else 0.0)
        if c != out_c[-1]:
            out_t.append(t - start)
            out_c.append(c)
    if not out_t:
        out_t, out_c = [0.0], [state if state is not None else 0.0]
    return {"times_s": out_t, "counts": out_c}


def cut_window(trace, start, length, name):
    window = json.loads(json.dumps(trace))  # a deep copy; the recording is small
    window["name"] = name
    window["span_s"] = length
    window["description"] = "{}: the window [{:.0f} s, {:.0f} s) of {}".format(name, start, start + length, trace["name"])
    for zone in window["zones"]:
        spot = zone["spot"]
        for key in ("availability", "capacity"):
            if key in spot:
                spot[key] = cut_series(spot[key], start, start + length)
        if "prices" in spot:
            sys.exit("window_files: a recording with a price series is not supported")
    return window


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trace", required=True)
    parser.add_argument("--windows", type=int, default=300)
    parser.add_argument("--window-hours", type=float, default=None, help="default: the largest deadline")
    parser.add_argument("--work-hours", type=float, default=48.0)
    parser.add_argument("--deadlines", type=float, nargs="+", default=[52.0])
    parser.add_argument("--policy", action="append", default=None)
    parser.add_argument("--mode", default="event", choices=["event", "cant-be-late"])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.trace) as f:
        trace = json.load(f)
    tick = trace["tick_s"]
    length = (args.window_hours if args.window_hours is not None else max(args.deadlines)) * 3600.0
    last_start = trace["span_s"] - length
    if last_start < 0 or args.windows < 1:
        sys.exit("window_files: the recording ({:g} s) is shorter than one window".format(trace["span_s"]))
    os.makedirs(args.out, exist_ok=True)
    names = []
    for i in range(args.windows):
        start = 0.0 if args.windows == 1 else (last_start * i / (args.windows - 1)) // tick * tick
        name = "window-{:05d}".format(i)
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump(cut_window(trace, start, length, name), f, separators=(",", ":"))
        names.append("./" + name + ".json")
    spec = {
        "format": "spotsim-experiment",
        "version": 1,
        "name": "{} windows of {}, one file per window".format(args.windows, trace["name"]),
        "seed": 2024,
        "replications": 1,
        "trace_start": "0s",
        "traces": names,
        "policies": args.policy or ["greedy"],
        "checkpoints": ["continuous"],
        "job": {"name": "{:g}h".format(args.work_hours), "work_hours": args.work_hours, "restore_s": 0,
                "checkpoint_write_s": 0, "startup_s": 720},
        "job_grid": {"deadline_hours": args.deadlines},
        "mode": args.mode,
    }
    with open(os.path.join(args.out, "spec.json"), "w") as f:
        json.dump(spec, f, indent=1)
    print(os.path.join(args.out, "spec.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

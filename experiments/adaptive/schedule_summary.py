#!/usr/bin/python3
"""A run's schedule in a few lines, from `simulate --timeline` files (docs/outputs.md#timeline): per replication, the
spans it held on-demand, its spot and on-demand starts, and the work done by chosen hours. For comparing a policy's
schedule with the optimum's (`-p optimal-offline`) window by window, in either mode; `spotsim report` draws them.

usage: experiments/adaptive/schedule_summary.py [--at 12,24,36,48] TIMELINE.jsonl...
"""
import argparse
import json
import sys


def work_by(events, hours):
    """Work done (hours) by `hours`: the last event's progress, plus the computing since it."""
    done = 0.0
    for event in events:
        if event["t_hours"] > hours:
            break
        done = event["progress_hours"] + (hours - event["t_hours"] if event["phase"] == "computing" else 0.0)
    return min(done, events[-1]["progress_hours"]) if events else 0.0


def summary(events, at):
    on_demand, starts, since = [], {"spot": 0, "on-demand": 0}, None
    for event in events:
        if event["event"] == "instance_acquired":
            starts[event["purchase"]] += 1
            if event["purchase"] == "on-demand":
                since = event["t_hours"]
        elif event["event"] == "instance_released" and event["purchase"] == "on-demand" and since is not None:
            on_demand.append(f"{since:.1f}-{event['t_hours']:.1f}")
            since = None
    spans = ", ".join(on_demand) if on_demand else "none"
    done = ", ".join(f"{work_by(events, t):.1f} h by {t:g} h" for t in at)
    return (f"{starts['spot']} spot and {starts['on-demand']} on-demand starts; on-demand {spans} h; work done "
            f"{done}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--at", default="12,24,36,48", help="hours since the start to report the work done by")
    parser.add_argument("timelines", nargs="+")
    args = parser.parse_args()
    at = [float(t) for t in args.at.split(",")]
    for path in args.timelines:
        with open(path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        if not lines or lines[0].get("format") != "spotsim-timeline":
            sys.exit(f"{path}: not a spotsim timeline (expected a first line with \"format\": \"spotsim-timeline\")")
        header = lines[0]
        for r in header["replications"]:
            events = [e for e in lines[1:] if e.get("replication") == r and "t_hours" in e]
            print(f"{path} ({header['policy']}, replication {r}): {summary(events, at)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

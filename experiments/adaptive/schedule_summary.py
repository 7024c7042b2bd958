#!/usr/bin/python3
"""A run's schedule in a few lines, from `simulate --timeline` files (docs/outputs.md#timeline): per replication, its
spot and on-demand starts, the spans it held on-demand, and its hours of computing by chosen times (the work done
where progress is never lost, as in the Can't Be Late mode). For comparing a policy's schedule with the optimum's
(`-p optimal-offline`) window by window, in either mode; `spotsim report` draws them. The files are read by
spotsim.read_timeline, the reader the report uses.

usage: PYTHONPATH=build/python experiments/adaptive/schedule_summary.py [--at 12,24,36,48] TIMELINE.jsonl...
"""
import argparse
import sys

import spotsim


def summary(run, at):
    held = run.held
    on_demand = held[held["purchase"] == "on-demand"] if len(held) else held
    spans = ", ".join(f"{a:.1f}-{b:.1f}" for a, b in zip(on_demand["from_hours"], on_demand["to_hours"])) or "none"
    computed = ", ".join(f"{run.computing_hours_by(t):.1f} h by {t:g} h" for t in at)
    return (f"{run.starts('spot')} spot and {run.starts('on-demand')} on-demand starts; on-demand {spans} h; "
            f"computing {computed}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--at", default="12,24,36,48", help="hours since the start to report the computing by")
    parser.add_argument("timelines", nargs="+")
    args = parser.parse_args()
    at = [float(t) for t in args.at.split(",")]
    for path in args.timelines:
        try:
            timeline = spotsim.read_timeline(path)
        except spotsim.InputError as error:
            sys.exit(f"schedule_summary.py: {error}")
        for run in timeline.runs:
            print(f"{path} ({timeline.header['policy']}, replication {run.replication}): {summary(run, at)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

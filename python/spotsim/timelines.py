"""Timelines (`simulate --timeline` files) as DataFrames: what a run held, its phases and its marks, read by the
same reader `spotsim report` uses (docs/outputs.md#timeline)."""
import pandas as pd

from . import _spotsim


class TimelineRun:
    """One run of a timeline, times in hours since the job's start:

    - `held`: a row per instance held (from_hours, to_hours, purchase "spot" or "on-demand", zone, zone_name);
    - `phases`: a row per phase (from_hours, to_hours, phase: idle, starting, migrating, restoring, computing, ...);
    - `marks`: a row per instant (at_hours, event: preemption, preemption_notice, checkpoint_done, transfer_done);
    - `node_counts`: an elastic run's instance counts (at_hours, spot, on_demand, training); empty otherwise;
    - `replication`, `end_hours`, `cost_usd`, `finished`, `completed`, `truncated`.
    """

    def __init__(self, columns):
        for key in ("replication", "end_hours", "cost_usd", "finished", "completed", "truncated"):
            setattr(self, key, columns[key])
        self.held = pd.DataFrame(columns["held"])
        self.phases = pd.DataFrame(columns["phases"])
        self.marks = pd.DataFrame(columns["marks"])
        self.node_counts = pd.DataFrame(columns["node_counts"])

    def starts(self, purchase):
        """How many times the run acquired `purchase` ("spot" or "on-demand")."""
        return int((self.held["purchase"] == purchase).sum()) if len(self.held) else 0

    def computing_hours_by(self, hours):
        """Hours spent computing up to `hours` since the start (the work done, where progress is never lost)."""
        if not len(self.phases):
            return 0.0
        computing = self.phases[self.phases["phase"] == "computing"]
        return float((computing["to_hours"].clip(upper=hours) - computing["from_hours"]).clip(lower=0.0).sum())

    def __repr__(self):
        return (f"TimelineRun(replication={self.replication}, end_hours={self.end_hours:.3f}, "
                f"cost_usd={self.cost_usd:.2f}, held={len(self.held)} spans)")


class Timeline:
    """A timeline file: `header` (the run's policies, job, trace, seed), `zones` (names by index) and `runs`."""

    def __init__(self, path):
        document = _spotsim.read_timeline(str(path))
        self.path = str(path)
        self.header = document["header"]
        self.zones = list(document["zones"])
        self.runs = [TimelineRun(run) for run in document["runs"]]

    def __repr__(self):
        return f"Timeline({self.path!r}, policy={self.header.get('policy')!r}, runs={len(self.runs)})"


def read_timeline(path):
    """A `simulate --timeline` file as a Timeline; InputError naming the file and line if it is not one."""
    return Timeline(path)

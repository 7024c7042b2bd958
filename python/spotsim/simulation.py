"""spotsim.simulate(): one job, one selection policy, one checkpoint policy, Monte Carlo replications."""
import json
import math

import pandas as pd

from . import _spotsim
from .intervals import interval_hours
from .options import cli_options
from .python_policies import policy_spec


class SimulationResult:
    """What ``spotsim simulate --format json`` writes, as Python objects.

    manifest -- dict: version, git revision, trace, policies, job, seed, replications (everything to reproduce it)
    runs     -- DataFrame, one row per replication, the columns of the CLI's CSV (docs/outputs.md)
    summary  -- DataFrame indexed by metric: unit, label, n, mean, sd, min, max, p50, p95, p99, ci_low, ci_high
                (ci_* = 95% Student-t interval of the mean)
    checkpoint, interval_hours, effective_interval_hours -- the checkpoint policy spec, the interval it sets in
                hours (NaN when it varies, spotsim/intervals.py) and the work done per checkpoint segment
    """

    def __init__(self, report):
        self._report = report
        self.manifest = report.manifest
        self.runs = pd.DataFrame(report.run_columns())
        self.summary = pd.DataFrame(report.summary_rows()).set_index("metric")

    @property
    def checkpoint(self):
        return self.manifest["checkpoint"]

    @property
    def interval_hours(self):
        """The checkpoint interval the policy spec sets, in hours; NaN when it varies (hazard, optimal-dp, ...)."""
        job = self.manifest["job"]
        return interval_hours(self.checkpoint, self.manifest["trace"]["path"], job["checkpoint_write_s"] / 3600,
                              job["nodes"])

    @property
    def effective_interval_hours(self):
        """The interval any policy achieved: mean work done per segment, a segment ending at a checkpoint or at
        completion (a 24 h job with a 3 h interval writes 7 checkpoints: 8 segments of 3 h). NaN without work."""
        segments = self.runs["checkpoints"].mean() + self.runs["completed"].mean()
        if not segments > 0:
            return math.nan
        # work_done_hours is in single-instance hours (docs/outputs.md): a completed run kept the job's whole work,
        # which gives the factor back to hours of the job's own training (N, or N t1/tN with step times).
        completed = self.runs["completed"] > 0
        work_hours = self.manifest["job"]["work_hours"]
        if completed.any() and work_hours > 0:
            per_instance = float(self.runs.loc[completed, "work_done_hours"].iloc[0]) / work_hours
        else:
            per_instance = float(self.manifest["job"]["nodes"])
        return float(self.runs["work_done_hours"].mean() / per_instance / segments)

    def to_json(self):
        """The CLI's --format json text (manifest, summary, runs)."""
        return self._report.to_json()

    def to_csv(self):
        """The CLI's --format csv text (one row per replication)."""
        return self._report.to_csv()

    @property
    def table(self):
        """The CLI's human-readable table."""
        return self._report.to_table()

    def __repr__(self):
        return self.table

    def as_dict(self):
        """The JSON document as a dict (what json.loads(cli output) gives)."""
        return json.loads(self.to_json())


def simulate(trace="us-west1", policy=None, checkpoint="young-daly", *, regions=None, zones=None, job=None, work=None,
             steps=None, step_time=None, nodes=None, gpus=None, min_nodes=None, reconfigure=None, network_gbps=None,
             checkpoint_write=None, restore=None, startup=None, checkpoint_size=None, deadline=None,
             give_up_after=None, trace_start="random", seed=1, replications=1000, threads=0, mode="event", tick=None,
             regret=False, timeline=None, timeline_replications=None):
    """Run ``spotsim simulate`` with these options and return a SimulationResult.

    The arguments are the CLI's options with '-' written '_', read by the CLI's own option schema
    (app/options/simulate_request_options.cpp), so the defaults, rules and messages are the CLI's: trace (a path or a
    shipped trace name), regions or zones (comma-separated names, or a list of them: the part of the trace the job may use), policy and
    checkpoint ("NAME[:key=value,...]", see spotsim.policies()), job (a job JSON file), work or steps + step_time,
    nodes or gpus, min_nodes (the elastic engine: policy then defaults to spot-nodes; None = adaptive otherwise),
    reconfigure, network_gbps, checkpoint_write, restore, startup, deadline, give_up_after (durations such as
    "48h"), checkpoint_size ("200GB": what a move to another region transfers), trace_start ("random" or a
    duration), seed, replications, threads (0 = all cores; never changes a result), mode ("event" or
    "cant-be-late"), tick (its tick), regret (also compute each window's offline optimum: columns optimum_cost and
    regret), timeline (also write the event log of the replications timeline_replications, "0,3,7", default the
    first 3, to this file, as the CLI's --timeline does). The same options and seed give the CLI's numbers exactly.

    policy and checkpoint may also be Python policy objects (docs/plugins.md#python-policies): an object with
    decide(observation) -> SelectionDecision, or next_interval(observation) -> seconds or None, and optionally
    reset(). The run is then single-threaded (the policy holds the GIL), with the same results for a seed.
    """
    policy, policy_object = policy_spec(policy)
    checkpoint, checkpoint_object = policy_spec(checkpoint)
    options = cli_options(trace=trace, regions=regions, zones=zones, policy=policy, checkpoint=checkpoint, job=job,
                          work=work, steps=steps, step_time=step_time, nodes=nodes, gpus=gpus, min_nodes=min_nodes,
                          reconfigure=reconfigure, network_gbps=network_gbps, checkpoint_write=checkpoint_write,
                          restore=restore, startup=startup, checkpoint_size=checkpoint_size, deadline=deadline,
                          give_up_after=give_up_after, trace_start=trace_start, seed=seed, replications=replications,
                          threads=threads, mode=mode, tick=tick, regret=regret, timeline=timeline,
                          timeline_replications=timeline_replications)
    if timeline is not None:
        options["timeline"] = str(timeline)
    return SimulationResult(_spotsim.simulate(options, policy_object, checkpoint_object))


def checkpoint_schedule(trace="us-west1", checkpoint="young-daly", **options):
    """The checkpoint policy's plan, as ``spotsim simulate --checkpoint-schedule`` writes it: one row per checkpoint
    on a fresh spot instance that starts the job in the trace's first zone (docs/policies.md#schedules).

    trace, checkpoint and the other keyword arguments are simulate()'s (work, checkpoint_write, restore, startup,
    nodes, job, ...), read by the CLI's option schema. Returns a DataFrame with the CSV's columns: checkpoint,
    instance_age_s, instance_age_h, interval_h, work_saved_h, remaining_h. ``df.to_csv(path, index=False)`` writes
    the file that ``checkpoint="schedule:PATH"`` replays.
    """
    rows = _spotsim.checkpoint_schedule(cli_options(trace=trace, checkpoint=checkpoint, **options))
    columns = ["checkpoint", "instance_age_s", "instance_age_h", "interval_h", "work_saved_h", "remaining_h"]
    return pd.DataFrame(rows, columns=columns)

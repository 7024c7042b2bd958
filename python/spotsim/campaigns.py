"""spotsim.campaign(): many jobs sharing one spot market whose capacity is limited (docs/campaign.md).

The C++ core does the work (app/campaign/campaign_options.hpp, shared with ``spotsim campaign``): the options
are the CLI's, the numbers and the JSON are the CLI's for the same options and seed. Python only turns the jobs given
as rows into the job stream's CSV text and the result's columns into DataFrames.
"""
import datetime
import json
import math
import os

import pandas as pd

from . import _spotsim
from .options import duration_text, name_list_text
from .progress import progress_bar

JOB_COLUMNS = ("name", "arrival", "work", "gpus", "nodes", "priority", "deadline", "score", "checkpoint_size")


def _cell(value):
    """One job-stream cell: timedeltas as durations, whole floats as integers (pandas turns an integer column with
    a gap into floats), missing values (None, NaN) empty: the column's default."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, datetime.timedelta):
        return duration_text(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def job_rows_csv(rows):
    """A list of dicts or a DataFrame with the job stream's columns -> its CSV text. The columns and values are
    checked by the C++ reader, whose messages name the line ('jobs:2' is the first row) and the column."""
    if isinstance(rows, pd.DataFrame):
        rows = rows.to_dict("records")
    rows = list(rows)
    if not all(isinstance(row, dict) for row in rows):
        raise _spotsim.InputError("jobs: expected a CSV path, a list of dicts or a DataFrame")
    header = list(dict.fromkeys(str(key) for row in rows for key in row))
    lines = [",".join(header)]
    for line, row in enumerate(rows, start=2):
        cells = {str(key): _cell(value) for key, value in row.items()}
        for key, text in cells.items():
            if "," in text or "\n" in text or "\r" in text:  # the file's format has no quoting
                raise _spotsim.InputError(f"jobs:{line}: {key}: expected a value without commas or line breaks, "
                                          f"got '{text}'")
        lines.append(",".join(cells.get(key, "") for key in header))
    return "\n".join(lines) + "\n"


def _trial_work(value):
    """'4h:12h', one duration, or a (shortest, longest) pair -> the CLI's --trial-work text."""
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise _spotsim.InputError(f"--trial-work: expected (shortest, longest), got {value!r}")
        return f"{duration_text(value[0])}:{duration_text(value[1])}"
    return duration_text(value)


def _halving(value):
    """None, 'none', 'ETA:MIN' or (eta, min) -> the CLI's --halving text."""
    if value is None:
        return None
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return f"{value[0]}:{value[1]}"
    return str(value)


class CampaignResult:
    """What ``spotsim campaign --format json`` writes, as DataFrames, with the runs behind it.

    settings    -- dict: trace, capacity, jobs, schedule, reclaim, halving, checkpoint, seed, replications, budget,
                   deadline (the JSON's fields besides "policies")
    policies    -- the rows' labels: the selection policies in order, then the managed offers
    managed     -- the labels of the managed offers' rows (by default the shipped catalogue's on the trace's GPU)
    summary     -- indexed by (policy, metric): n, mean, sd, min, max, p50, p95, p99, ci_low, ci_high over
                   the replications, for every column of runs (all_done, deadline_met, budget_exhausted: shares)
    runs        -- one row per (policy, replication): makespan, costs, jobs completed/stopped/failed, capacity use
    jobs        -- one row per (policy, replication, job): status, finish_hours (from the campaign's start),
                   job_deadline_met, then the job's own run with simulate()'s columns (times from its arrival)
    job_summary -- per (policy, job): finish_hours mean and interval, completed_share, stopped_share; with jobs,
                   turnaround_hours mean and interval, slowdown_mean, cost_mean, deadline_met_share;
                   scaling_efficiency (what the job's work was divided by on the row's layout)
    by_job_size -- with jobs (a job stream): per (policy, size), unit "gpus" or "instances", jobs, then
                   turnaround_hours, slowdown, cost_per_job and deadline_met, each _mean, _ci_low, _ci_high (the
                   JSON's by_job_size; empty for trials)
    hourly      -- per (policy, hour after the start): held_by_hour, capacity_by_hour (mean spot instances held and
                   obtainable)
    break_even  -- with engineering_cost: the JSON's "break_even" (every DIY row against the cheapest managed row, or
                   baseline: saving_fraction and break_even_monthly_spend, None = never); else None
    savings     -- with current_spend: the JSON's "savings" (every DIY row against baseline at that monthly spend:
                   saving_fraction, gross_ and net_saving_per_month, engineering_limit_per_month); else None
    """

    def __init__(self, session):
        self._session = session
        document = json.loads(session.to_json())
        self.break_even = document.get("break_even")
        self.savings = document.get("savings")
        self.policies = [row["policy"] for row in document["policies"]]
        self.managed = [row["policy"] for row in document["policies"] if row["managed"]]
        self.settings = {key: value for key, value in document.items()
                         if key not in ("policies", "break_even", "savings")}
        self.summary = pd.DataFrame(session.summary_rows()).set_index(["policy", "metric"])
        self.runs = pd.DataFrame(session.run_columns())
        self.jobs = pd.DataFrame(session.job_columns())
        self.job_summary = pd.DataFrame(session.job_summary_rows())
        self.by_job_size = pd.DataFrame(session.job_size_rows())
        self.hourly = pd.DataFrame(session.hourly_rows(), columns=["policy", "hour", "held_by_hour",
                                                                   "capacity_by_hour"])

    def to_json(self):
        """The CLI's --format json text for the same options (with --engineering-cost: engineering_cost)."""
        return self._session.to_json()

    def as_dict(self):
        return json.loads(self.to_json())

    def wide(self, metrics=("makespan_hours", "cost_total", "deadline_met", "capacity_utilisation"),
             stats=("mean", "ci_low", "ci_high")):
        """One row per policy, columns '<metric>_<stat>'."""
        table = self.summary.loc[(slice(None), list(metrics)), list(stats)].unstack("metric")
        table.columns = [f"{metric}_{stat}" for stat, metric in table.columns]
        return table[[f"{m}_{s}" for m in metrics for s in stats]].loc[self.policies]

    def __repr__(self):
        return f"<CampaignResult {self.settings['jobs']} jobs on {self.settings['trace']}, " \
               f"{self.settings['replications']} replications: {', '.join(self.policies)}>"


def campaign(trace="gcp-h100-capacity-13-zones", policy="spot-only,greedy,on-demand", checkpoint="young-daly", *,
             regions=None, zones=None, replay=False, mode="event", tick=None, jobs=None, trials=None, trial_work=None,
             gpus=1, capacity="recorded", schedule="fifo", reclaim="random", halving="none", budget=None,
             deadline=None, startup="5m", checkpoint_write="1m", restore="1m", managed="managed_training",
             engineering_cost=None, baseline=None, current_spend=None, cross_instance_efficiency=0.9,
             links="instance_links", replications=200, seed=1, threads=0, progress=None):
    """Run ``spotsim campaign`` with these options and return a CampaignResult (docs/python.md#campaigns).

    The options are the CLI's, read through its own schema (``spotsim campaign --help``; the defaults here are its
    defaults, which tests/python/test_cli_parity.py checks):
    regions, zones -- the part of the trace the campaign uses ("us-east4,us-central1" or a list; one of them);
    replay -- allow jobs whose arrival + work exceeds the recording (replayed cyclically); else InputError;
    policy -- selection policy specs, comma-separated or a list (one row each, on the same seeds: paired); for
            jobs with min_nodes (elastic), multi-node policies (spot-nodes, deadline-nodes, on-demand-nodes);
    mode -- "event", or "cant-be-late": every job in the Can't Be Late tick engine (with checkpoint="continuous"),
            on ticks of tick (None: the trace's) counted from its arrival;
    jobs -- a job-stream CSV path, or rows (a list of dicts or a DataFrame) with its columns name, arrival, work,
            gpus or nodes, priority, deadline, score, checkpoint_size, min_nodes, instance_type, params, step_time,
            gradient_bytes, overlap; without it, trials (None: the CLI's 40)
            trials whose work is spread over trial_work (None: the CLI's "4h:12h"; one duration or a (shortest,
            longest) pair);
    gpus -- GPUs of a job that states neither gpus nor nodes;
    cross_instance_efficiency -- data-parallel scaling efficiency of a job spanning several instances (work / it);
            jobs stating params and step_time get the step-time model's instead, with the instance link table
            links (a shipped name or a file; docs/campaign.md#communication);
    halving -- "none", "ETA:MIN" or (eta, min), successive halving; budget -- USD; deadline, startup,
            checkpoint_write, restore -- durations ("3d") or timedelta;
    managed -- the managed offers whose rows are added on the trace's GPU: a shipped catalogue name or a file
            (True: the shipped one), or False / "none" for no managed rows;
    engineering_cost -- the monthly engineering cost of DIY ("8000/month" or a number of USD per month): the
            break-even of every policy against the cheapest managed row (needs managed rows), or baseline;
    baseline -- the row paid today, by its label or some of its words ("vertex on-demand"); current_spend -- what
            it costs a month ("12000/month" or a number): savings, each policy's monthly saving against it and the
            engineering cost up to which it pays;
    progress -- None: a bar in a notebook, a line on stderr in a terminal (one step per row); False: none.
    """
    policies = [policy] if isinstance(policy, str) else list(policy)
    if not all(isinstance(p, str) for p in policies):
        raise _spotsim.InputError("--policy: expected selection policy specs (spotsim.policies()); Python policy "
                                  "objects are not taken by campaign()")
    if managed is True:
        managed = "managed_training"
    elif managed is False or managed is None:
        managed = "none"
    options = {"trace": trace, "regions": name_list_text(regions), "zones": name_list_text(zones), "replay": replay, "policy": ",".join(policies),
               "checkpoint": checkpoint, "mode": mode,
               "tick": None if tick is None else duration_text(tick), "capacity": capacity,
               "trials": trials, "gpus": gpus, "schedule": schedule, "reclaim": reclaim, "halving": _halving(halving),
               "budget": budget, "managed_catalogue": os.fspath(managed),
               "engineering_cost": None if engineering_cost is None else str(engineering_cost),
               "baseline": baseline, "current_spend": None if current_spend is None else str(current_spend),
               "cross_instance_efficiency": cross_instance_efficiency, "links": os.fspath(links),
               "replications": replications, "seed": seed, "threads": threads}
    if trial_work is not None:
        options["trial_work"] = _trial_work(trial_work)
    for key, value in (("deadline", deadline), ("startup", startup), ("checkpoint_write", checkpoint_write),
                       ("restore", restore)):
        options[key] = None if value is None else duration_text(value)
    if isinstance(jobs, (str, os.PathLike)):
        options["jobs"] = os.fspath(jobs)
    elif jobs is not None:
        options["job_rows"] = job_rows_csv(jobs)
    session = _spotsim.CampaignSession(options)
    for name in session.policies:  # every spec checked before the first row runs
        _spotsim.check_policies(name, checkpoint)
    bar = progress_bar(len(session.policies) + session.has_managed_rows, "campaign", progress)
    try:
        for name in session.policies:
            session.run_policy(name)
            bar.update()
        if session.has_managed_rows:
            session.run_managed()
            bar.update()
    finally:
        bar.close()
    return CampaignResult(session)

"""spotsim.sweep(): every combination of traces x selection policies x checkpoint policies x jobs, one seed.

Each combination is one simulate() call with the same base seed, so all of them see the same preemption sample
paths (common random numbers: the streams are keyed by seed, replication and purpose, never by the policy).
Differences between policies are then paired, and far tighter than the two separate confidence intervals suggest;
paired_differences() reports them, against a baseline selection policy, checkpoint policy or job.
"""
import itertools

import pandas as pd

from . import _spotsim
from .options import JOB_OPTIONS, duration_text
from .paired import paired_difference
from .progress import progress_bar
from .python_policies import policy_spec
from .simulation import simulate

CONFIGURATION = ["trace", "policy", "checkpoint", "job"]
# The configuration dimensions a baseline can be taken from (traces do not share sample paths).
BASELINE_KINDS = {"policy": 1, "checkpoint": 2, "job": 3}


def fixed_interval(interval, on_notice=False):
    """The checkpoint spec of a fixed interval: fixed_interval("2h") -> "fixed:interval=2h"."""
    spec = f"fixed:interval={duration_text(interval)}"
    return spec + (",on_notice=true" if on_notice else "")


class SweepResult:
    """runs: one row per (configuration, replication); summary: one row per (configuration, metric).

    Configuration columns: trace, policy, checkpoint, interval_hours (the checkpoint interval in hours, NaN when
    the policy varies it), job (the job's label). Summary columns: unit, n, mean, sd, min, max, p50, p95, p99,
    ci_low, ci_high, as in SimulationResult.summary.
    """

    def __init__(self, results):
        self.results = results  # {(trace, policy, checkpoint, job): SimulationResult}
        runs, summaries = [], []
        for key, result in results.items():
            labels = {**dict(zip(CONFIGURATION, key)), "interval_hours": result.interval_hours}
            runs.append(result.runs.assign(**labels))
            summaries.append(result.summary.reset_index().assign(**labels))
        labels = CONFIGURATION[:3] + ["interval_hours"] + CONFIGURATION[3:]
        self.runs = pd.concat(runs, ignore_index=True)[labels + list(runs[0].columns[:-len(labels)])]
        summary = pd.concat(summaries, ignore_index=True)
        self.summary = summary[labels + [c for c in summary.columns if c not in labels]]

    def wide(self, metrics=("cost_total", "completion_hours"), stats=("mean", "ci_low", "ci_high", "p95")):
        """One row per configuration: trace, policy, checkpoint, interval_hours, job, then '<metric>_<stat>'."""
        rows = self.summary[self.summary["metric"].isin(metrics)]
        table = rows.pivot_table(index=CONFIGURATION, columns="metric", values=list(stats), sort=False)
        table.columns = [f"{metric}_{stat}" for stat, metric in table.columns]
        table = table[[f"{m}_{s}" for m in metrics for s in stats]].reset_index()
        intervals = [self.results[tuple(key)].interval_hours for key in table[CONFIGURATION].itertuples(index=False)]
        table.insert(3, "interval_hours", intervals)
        return table

    def _baseline_kind(self, baseline, by):
        if by is not None:
            if by not in BASELINE_KINDS:
                raise _spotsim.InputError(f"by: expected one of {', '.join(BASELINE_KINDS)}, got '{by}'")
            return by
        kinds = [kind for kind, i in BASELINE_KINDS.items() if any(key[i] == baseline for key in self.results)]
        if len(kinds) != 1:
            choices = "; ".join(f"{kind}: {', '.join(dict.fromkeys(k[i] for k in self.results))}"
                                for kind, i in BASELINE_KINDS.items())
            what = "is not among" if not kinds else f"is ambiguous (a {' and a '.join(kinds)}) among"
            raise _spotsim.InputError(f"baseline '{baseline}' {what} the sweep's policies, checkpoints and jobs "
                                      f"({choices}); name one, and by= when ambiguous")
        return kinds[0]

    def paired_differences(self, baseline, metric="cost_total", confidence=0.95, by=None):
        """Per configuration: mean of (metric - the baseline's metric) over the same replications, with its
        Student-t confidence interval. The baseline is a selection policy, a checkpoint policy spec or a job label
        of the sweep (by="policy", "checkpoint" or "job" when the name alone is ambiguous); it is matched on every
        other dimension (e.g. a checkpoint baseline on trace, policy and job)."""
        kind = self._baseline_kind(baseline, by)
        position = BASELINE_KINDS[kind]
        rows = []
        for key, result in self.results.items():
            base_key = key[:position] + (baseline,) + key[position + 1:]
            base = self.results.get(base_key)
            if base is None:
                raise _spotsim.InputError(f"baseline {kind} '{baseline}' is not among the sweep's {kind}s")
            d = paired_difference(result, base, metric, confidence)
            rows.append({**dict(zip(CONFIGURATION, key)), "interval_hours": result.interval_hours,
                         "metric": metric, "baseline": baseline, "baseline_kind": kind,
                         "mean_difference": d["mean_difference"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                         "n": d["n"]})
        return pd.DataFrame(rows)


def sweep(traces=("us-west1",), policies=("adaptive",), checkpoints=("young-daly",), *, checkpoint_intervals=(),
          checkpoint_on_notice=False, jobs=None, seed=1, replications=200, threads=0, trace_start="random",
          progress=None, **job_options):
    """Simulate every combination and return a SweepResult.

    traces, policies, checkpoints -- lists of trace names/paths and policy specs (as simulate() takes them);
    checkpoint_intervals -- durations: one "fixed:interval=D" checkpoint policy is added per interval;
    jobs -- {label: {job options}} to compare job parameter sets; without it one job "job" made of **job_options
            (work, nodes, checkpoint_write, deadline, ...: simulate()'s job options, applied to every job);
    progress -- None: a bar in a notebook, a line on stderr in a terminal (per simulated cell); False: none.
    """
    for key in job_options:
        if key not in JOB_OPTIONS:
            raise TypeError(f"sweep() got an unexpected keyword argument '{key}'")
    checkpoints = list(checkpoints) + [fixed_interval(i, checkpoint_on_notice) for i in checkpoint_intervals]
    jobs = {"job": {}} if jobs is None else jobs
    for name, values in (("traces", traces), ("policies", policies), ("checkpoints", checkpoints), ("jobs", jobs)):
        if isinstance(values, str) or len(values) == 0:
            raise _spotsim.InputError(f"{name}: expected a non-empty list")
    # Every spec is checked before the first simulation, so a typo in the last one does not cost the whole sweep.
    # Python policy objects (docs/plugins.md) are labelled "python:NAME" and run single-threaded.
    labelled = {spec: spec if obj is None else obj for spec, obj in map(policy_spec, policies)}
    labelled_checkpoints = {spec: spec if obj is None else obj for spec, obj in map(policy_spec, checkpoints)}
    for policy in (p for p in labelled.values() if isinstance(p, str)):
        _spotsim.check_policies(policy, "young-daly")
    for checkpoint in (c for c in labelled_checkpoints.values() if isinstance(c, str)):
        _spotsim.check_policies("adaptive", checkpoint)
    cells = list(itertools.product(traces, labelled, labelled_checkpoints, jobs))
    bar = progress_bar(len(cells), "sweep", progress)
    results = {}
    try:
        for trace, policy, checkpoint, job in cells:
            options = {**job_options, **jobs[job]}
            results[(trace, policy, checkpoint, job)] = simulate(
                trace, labelled[policy], labelled_checkpoints[checkpoint], seed=seed, replications=replications, threads=threads,
                trace_start=trace_start, **options)
            bar.update()
    finally:
        bar.close()
    return SweepResult(results)

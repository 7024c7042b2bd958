"""spotsim.sweep(): every combination of traces x selection policies x checkpoint policies x jobs, one seed.

Each combination is one simulate() call with the same base seed, so all of them see the same preemption sample
paths (common random numbers: the streams are keyed by seed, replication and purpose, never by the policy).
Differences between policies are then paired, and far tighter than the two separate confidence intervals suggest;
paired_differences() reports them.
"""
import itertools

import pandas as pd

from . import _spotsim
from .options import JOB_OPTIONS, duration_text
from .simulation import simulate

CONFIGURATION = ["trace", "policy", "checkpoint", "job"]


def fixed_interval(interval, on_notice=False):
    """The checkpoint spec of a fixed interval: fixed_interval("2h") -> "fixed:interval=2h"."""
    spec = f"fixed:interval={duration_text(interval)}"
    return spec + (",on_notice=true" if on_notice else "")


class SweepResult:
    """runs: one row per (configuration, replication); summary: one row per (configuration, metric).

    Configuration columns: trace, policy, checkpoint, job (the job's label). Summary columns: unit, n, mean, sd,
    min, max, p50, p95, p99, ci_low, ci_high, as in SimulationResult.summary.
    """

    def __init__(self, results):
        self.results = results  # {(trace, policy, checkpoint, job): SimulationResult}
        runs, summaries = [], []
        for key, result in results.items():
            labels = dict(zip(CONFIGURATION, key))
            runs.append(result.runs.assign(**labels))
            summaries.append(result.summary.reset_index().assign(**labels))
        self.runs = pd.concat(runs, ignore_index=True)[CONFIGURATION + list(runs[0].columns[:-4])]
        summary = pd.concat(summaries, ignore_index=True)
        self.summary = summary[CONFIGURATION + [c for c in summary.columns if c not in CONFIGURATION]]

    def wide(self, metrics=("cost_total", "completion_hours"), stats=("mean", "ci_low", "ci_high", "p95")):
        """One row per configuration with columns '<metric>_<stat>'."""
        rows = self.summary[self.summary["metric"].isin(metrics)]
        table = rows.pivot_table(index=CONFIGURATION, columns="metric", values=list(stats), sort=False)
        table.columns = [f"{metric}_{stat}" for stat, metric in table.columns]
        return table[[f"{m}_{s}" for m in metrics for s in stats]].reset_index()

    def paired_differences(self, baseline_policy, metric="cost_total", confidence=0.95):
        """Per configuration: mean of (metric - the baseline policy's metric) over the same replications, with its
        Student-t confidence interval. The baseline is matched on trace, checkpoint and job."""
        rows = []
        for (trace, policy, checkpoint, job), result in self.results.items():
            base = self.results.get((trace, baseline_policy, checkpoint, job))
            if base is None:
                raise _spotsim.InputError(f"baseline policy '{baseline_policy}' is not among the sweep's policies")
            difference = result.runs[metric].to_numpy() - base.runs[metric].to_numpy()
            s = _spotsim.summarize(difference, confidence)
            rows.append({"trace": trace, "policy": policy, "checkpoint": checkpoint, "job": job,
                         "metric": metric, "baseline": baseline_policy, "mean_difference": s["mean"],
                         "ci_low": s["ci_low"], "ci_high": s["ci_high"], "n": s["n"]})
        return pd.DataFrame(rows)


def sweep(traces=("us-west1",), policies=("adaptive",), checkpoints=("young-daly",), *, checkpoint_intervals=(),
          checkpoint_on_notice=False, jobs=None, seed=1, replications=200, threads=0, trace_start="random",
          **job_options):
    """Simulate every combination and return a SweepResult.

    traces, policies, checkpoints -- lists of trace names/paths and policy specs (as simulate() takes them);
    checkpoint_intervals -- durations: one "fixed:interval=D" checkpoint policy is added per interval;
    jobs -- {label: {job options}} to compare job parameter sets; without it one job "job" made of **job_options
            (work, nodes, checkpoint_write, deadline, ...: simulate()'s job options, applied to every job).
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
    for policy, checkpoint in itertools.product(policies, checkpoints):
        _spotsim.check_policies(policy, checkpoint)
    results = {}
    for trace, policy, checkpoint, job in itertools.product(traces, policies, checkpoints, jobs):
        options = {**job_options, **jobs[job]}
        results[(trace, policy, checkpoint, job)] = simulate(
            trace, policy, checkpoint, seed=seed, replications=replications, threads=threads, trace_start=trace_start,
            **options)
    return SweepResult(results)

"""spotsim.checkpoint_tuning(): which checkpoint interval, or which checkpoint policy, is best for a job on a trace.

The notebook version of a sweep spec's `checkpoint_intervals` report (app/sweep/checkpoint_tuning.cpp):
fixed intervals and checkpoint policies simulated with one seed (common random numbers), the best fixed interval,
the intervals not significantly worse than it, and every row's paired difference against a baseline.
"""
import math

from . import _spotsim
from .intervals import interval_hours
from .paired import paired_difference
from .sweeps import sweep

DEFAULT_INTERVALS = ("15m", "30m", "45m", "1h", "90m", "2h", "3h", "4h", "6h")
HIGHER_IS_BETTER = {"completed", "deadline_met"}  # as the sweep's tuning_metric


def checkpoint_tuning(trace="us-west1", intervals=DEFAULT_INTERVALS, checkpoints=("young", "daly", "hazard"), *,
                      policy="spot-only", metric="completion_hours", baseline="best", on_notice=False, seed=1,
                      replications=200, threads=0, trace_start="random", progress=None, **job_options):
    """Simulate one fixed-interval checkpoint policy per interval and each of `checkpoints` with selection policy
    `policy` on `trace`, and return a DataFrame with one row per checkpoint policy (fixed intervals first, shortest
    first): checkpoint, interval_hours (NaN when the policy varies it), effective_interval_hours (work per
    checkpoint segment), mean, ci_low and ci_high of `metric`, completion_hours and cost_total, the paired
    difference of `metric` to `baseline` (difference, difference_ci_low, difference_ci_high) and to the best fixed
    interval (difference_to_best, ..._ci_low, ..._ci_high), best (the best fixed interval) and plausible (fixed
    intervals whose paired difference to the best reaches 0: not significantly worse).

    baseline -- "best" (the best fixed interval) or one of the checkpoint specs, e.g. "daly";
    metric   -- any per-run metric; lower is better except completed and deadline_met;
    the job options (work, checkpoint_write, nodes, ...) and seed, replications, threads, trace_start, progress are
    sweep()'s. attrs: metric, baseline, best_interval_hours, young_interval_hours, daly_interval_hours.
    """
    if isinstance(intervals, str) or isinstance(checkpoints, str):
        raise _spotsim.InputError("intervals and checkpoints: expected lists (e.g. ['30m', '1h'] and ['daly'])")
    if len(intervals) == 0:
        raise _spotsim.InputError("intervals: expected at least one fixed interval such as '1h'")
    grid = sweep(traces=[trace], policies=[policy], checkpoints=list(checkpoints), checkpoint_intervals=intervals,
                 checkpoint_on_notice=on_notice, seed=seed, replications=replications, threads=threads,
                 trace_start=trace_start, progress=progress, **job_options)
    results = {key[2]: result for key, result in grid.results.items()}
    if metric not in next(iter(results.values())).runs.columns:
        raise _spotsim.InputError(f"metric: unknown metric '{metric}' (see spotsim.metrics())")
    sign = -1.0 if metric in HIGHER_IS_BETTER else 1.0  # compare as "lower is better"

    metrics = tuple(dict.fromkeys((metric, "completion_hours", "cost_total")))
    table = grid.wide(metrics=metrics, stats=("mean", "ci_low", "ci_high"))
    table = table.set_index("checkpoint", drop=False).drop(columns=["trace", "policy", "job"])
    table.insert(2, "effective_interval_hours", [results[c].effective_interval_hours for c in table.index])
    fixed = sorted((c for c in table.index if c.startswith("fixed:")), key=lambda c: table.loc[c, "interval_hours"])
    table = table.loc[fixed + [c for c in table.index if c not in fixed]]

    best = min(fixed, key=lambda c: sign * table.loc[c, f"{metric}_mean"])
    baseline_spec = best if baseline == "best" else baseline
    if baseline_spec not in results:
        raise _spotsim.InputError(f"baseline: expected 'best' or one of the checkpoint specs "
                                  f"({', '.join(results)}), got '{baseline}'")
    for column, against in (("difference", baseline_spec), ("difference_to_best", best)):
        d = [paired_difference(results[c], results[against], metric) for c in table.index]
        table[column] = [x["mean_difference"] for x in d]
        table[f"{column}_ci_low"] = [x["ci_low"] for x in d]
        table[f"{column}_ci_high"] = [x["ci_high"] for x in d]
    table["best"] = table.index == best
    # Not significantly worse than the best: the better end of the paired interval reaches 0 (as the CLI's report).
    better_end = table["difference_to_best_ci_low"] if sign > 0 else -table["difference_to_best_ci_high"]
    table["plausible"] = table.index.isin(fixed) & ((better_end <= 0) | table["best"])
    table = table.reset_index(drop=True)

    # The closed forms for this trace and job, to mark on a plot (None when spot is never preempted).
    manifest = results[best].manifest
    write_hours, nodes = manifest["job"]["checkpoint_write_s"] / 3600, manifest["job"]["nodes"]
    closed = {f"{name}_interval_hours": interval_hours(name, manifest["trace"]["path"], write_hours, nodes)
              for name in ("young", "daly")}
    table.attrs.update(metric=metric, baseline=baseline_spec,
                       best_interval_hours=float(table.loc[table["best"], "interval_hours"].iloc[0]),
                       **{k: None if math.isnan(v) else v for k, v in closed.items()})
    return table

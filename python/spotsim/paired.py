"""Paired differences between two simulations that share their random numbers.

The streams are keyed by (seed, replication, purpose), never by a policy (docs/model.md), so two runs of the same
trace with the same seed, replications and trace start see the same preemptions replication by replication,
whatever their selection policy, checkpoint policy or job. The difference d_r = x_r - baseline_r then has a far
smaller spread than either x or baseline, and its Student-t interval is the honest one for "is A better than B".
"""
from . import _spotsim

# What two results must share for their replications to be paired.
_SHARED = (("seed", lambda m: m["seed"]), ("replications", lambda m: m["replications"]),
           ("trace", lambda m: m["trace"]["path"]), ("trace_start", lambda m: m["trace_start"]),
           ("mode", lambda m: m["mode"]))


def paired_difference(result, baseline, metric="cost_total", confidence=0.95):
    """dict(metric, n, mean_difference, sd, ci_low, ci_high) of result.runs[metric] - baseline.runs[metric] over the
    same replications. InputError if the two do not share trace, seed, replications, trace start and mode."""
    for name, read in _SHARED:
        mine, theirs = read(result.manifest), read(baseline.manifest)
        if mine != theirs:
            raise _spotsim.InputError(f"paired difference: the results differ in {name} ({mine!r} vs baseline "
                                      f"{theirs!r}); pairing needs the same trace, seed, replications and trace start")
    if metric not in result.runs.columns:
        raise _spotsim.InputError(f"paired difference: unknown metric '{metric}' (see spotsim.metrics())")
    difference = result.runs[metric].to_numpy(float) - baseline.runs[metric].to_numpy(float)
    s = _spotsim.summarize(difference.tolist(), confidence)
    return {"metric": metric, "n": s["n"], "mean_difference": s["mean"], "sd": s["sd"], "ci_low": s["ci_low"],
            "ci_high": s["ci_high"]}

"""Small analyses notebooks need on top of the summaries: Pareto frontiers and confidence intervals of quantiles."""
import math

import numpy as np
import pandas as pd

from . import _spotsim


def pareto_front(frame, x="cost_total_mean", y="completion_hours_mean"):
    """Boolean Series: True for the rows no other row beats on both x and y (both smaller is better). A row equal
    to another on both is kept (neither dominates)."""
    xs, ys = frame[x].to_numpy(float), frame[y].to_numpy(float)
    dominated = np.zeros(len(frame), dtype=bool)
    for i in range(len(frame)):
        better_or_equal = (xs <= xs[i]) & (ys <= ys[i])
        strictly_better = (xs < xs[i]) | (ys < ys[i])
        dominated[i] = bool(np.any(better_or_equal & strictly_better))
    return pd.Series(~dominated, index=frame.index, name="pareto")


def quantile_ci(values, q=0.95, confidence=0.95):
    """(estimate, low, high): the q-quantile (type 7, as the summaries' p95) with a distribution-free confidence
    interval from order statistics: the ranks l, u such that a Binomial(n, q) count falls in [l, u) with the given
    probability (normal approximation with continuity correction; Conover, Practical Nonparametric Statistics,
    3rd ed., sec. 3.2). Needs no assumption on the distribution of costs or completion times."""
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n == 0:
        raise _spotsim.InputError("quantile_ci: expected at least one value")
    estimate = float(np.quantile(x, q))
    z = _spotsim.student_t_quantile(1e9, 0.5 + confidence / 2)  # a normal quantile: t with infinite dof
    half = z * math.sqrt(n * q * (1 - q))
    low = max(0, math.floor(n * q - half - 0.5))
    high = min(n - 1, math.ceil(n * q + half + 0.5) - 1)
    return estimate, float(x[low]), float(x[high])

"""The checkpoint interval a checkpoint policy spec stands for, as a number of hours (for tables and plots).

`fixed:interval=D` is D; `young`, `daly` and `young-daly` are their closed forms (policies/checkpoint_math.hpp) with
the job's write time and the trace's mean time between preemptions for the job's nodes, or their `mtbf=` override.
Policies that choose the interval per state (hazard, optimal-dp) or have none (none, continuous, on-notice) give
NaN, as do young/daly on a trace whose zones differ in MTBF (the policy then follows the zone it is in).
"""
import functools
import math

from . import _spotsim

_CLOSED_FORMS = {"young": _spotsim.young_interval, "daly": _spotsim.daly_interval,
                 "young-daly": _spotsim.daly_interval}
_MIN_WRITE_HOURS = 1 / 3_600_000  # the policy uses at least 1 ms as the write time


def _parse_spec(spec):
    """'name:key=value,...' -> (name, {key: value}); the registry has already validated the spec."""
    name, _, rest = spec.partition(":")
    params = dict(item.split("=", 1) for item in rest.split(",") if "=" in item)
    return name.strip(), {k.strip(): v.strip() for k, v in params.items()}


@functools.lru_cache(maxsize=256)
def _zone_mtbf_hours(trace, nodes):
    mtbfs = {zone["spot_mtbf_hours"] for zone in _spotsim.trace_zones(trace, nodes)}
    if len(mtbfs) != 1:
        return math.nan
    mtbf = next(iter(mtbfs))
    return float(mtbf) if mtbf is not None and math.isfinite(mtbf) and mtbf > 0 else math.nan


def interval_hours(spec, trace, checkpoint_write_hours, nodes=1):
    """The interval `spec` sets, in hours, for this trace and job; NaN when it is not one number (see above)."""
    name, params = _parse_spec(spec)
    if name == "fixed":
        return _spotsim.duration_hours(params.get("interval", "1h"), "interval")
    formula = _CLOSED_FORMS.get(name)
    if formula is None:
        return math.nan
    if "mtbf" in params:
        mtbf = _spotsim.duration_hours(params["mtbf"], "mtbf")
    else:
        mtbf = _zone_mtbf_hours(str(trace), int(nodes))
    if not mtbf > 0:
        return math.nan
    return formula(max(checkpoint_write_hours, _MIN_WRITE_HOURS), mtbf)

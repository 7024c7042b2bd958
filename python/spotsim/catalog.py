"""What spotsim knows about: policies, shipped traces and their zones, metrics, GPUs."""
import pandas as pd

from . import _spotsim


def policies():
    """Selection and checkpoint policies (``simulate --list-policies``): kind, name, description, parameters."""
    return pd.DataFrame(_spotsim.policies())


def traces():
    """The shipped trace library: trace (the name simulate() takes), name, zones, gpu, span_hours, description."""
    return pd.DataFrame(_spotsim.shipped_traces())


def trace_zones(trace, nodes=1):
    """Per zone of a trace: prices, preemption source and rate, spot MTBF for `nodes` nodes, notice, lifetime model."""
    return pd.DataFrame(_spotsim.trace_zones(trace, nodes))


def trace_document(trace):
    """The trace file (a path or a shipped name) as a dict in spotsim trace format v1 (docs/trace-format.md)."""
    return _spotsim.trace_document(trace)


def write_trace(document, path):
    """Validate a trace dict with the trace reader and write it as JSON; returns the path, ready for simulate()."""
    _spotsim.write_trace(document, str(path))
    return str(path)


def metrics():
    """The per-run metrics: metric, unit, label (docs/outputs.md)."""
    return pd.DataFrame(_spotsim.metrics())


def gpu_specs():
    """The GPU spec table of the step-time model: SMs, memory, bandwidth, dense peaks, datasheet source."""
    return pd.DataFrame(_spotsim.gpu_specs())

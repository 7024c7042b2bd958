"""spotsim from Python: cost and completion time of ML training on spot GPUs.

The same core library as the ``spotsim`` command line, with results as pandas DataFrames (docs/python.md)::

    import spotsim
    result = spotsim.simulate(trace="us-west1", policy="adaptive", work="48h", replications=1000)
    result.summary.loc["cost_total", ["mean", "ci_low", "ci_high"]]

Every user error raises ``spotsim.InputError`` (a ValueError) with the message the CLI prints.
"""
from ._environment import check_interpreter

check_interpreter()  # before numpy or the extension: a clear message from the wrong python3

from ._spotsim import (BuiltinPolicy, InputError, LifetimeModel, PolicyError, __version__, clear_plan_cache,
                       daly_interval, git_revision, load_plugin, loaded_plugins, plan_cache_statistics, young_interval)
from .analysis import pareto_front, quantile_ci
from .campaigns import CampaignResult, campaign
from .catalog import gpu_specs, metrics, policies, trace_document, trace_zones, traces, write_trace
from .data import shared_dir
from .intervals import interval_hours
from .lifetimes import empirical_cdf, fit_lifetimes, kaplan_meier, lifetime_model, lifetime_records
from .paired import paired_difference
from .python_policies import Observation, Phase, Purchase, SelectionDecision
from .simulation import SimulationResult, checkpoint_schedule, simulate
from .steptime import KinetoProfile, checkpoint_cost, read_kineto
from .sweeps import SweepResult, fixed_interval, sweep
from .timelines import Timeline, TimelineRun, read_timeline
from .tuning import checkpoint_tuning

InputError.__module__ = "spotsim"  # tracebacks say spotsim.InputError, the name users catch

__all__ = [
    "BuiltinPolicy", "CampaignResult", "InputError", "KinetoProfile", "Observation", "Phase", "PolicyError", "Purchase", "SelectionDecision", "LifetimeModel", "SimulationResult", "SweepResult", "Timeline", "TimelineRun", "__version__",
    "campaign", "checkpoint_cost", "checkpoint_schedule", "checkpoint_tuning", "clear_plan_cache", "daly_interval", "empirical_cdf", "fit_lifetimes", "fixed_interval",
    "git_revision", "gpu_specs", "interval_hours", "kaplan_meier", "lifetime_model", "lifetime_records",
    "load_plugin", "loaded_plugins", "metrics",
    "paired_difference", "pareto_front", "plan_cache_statistics", "policies", "quantile_ci", "read_kineto", "read_timeline", "shared_dir", "simulate", "sweep", "trace_document", "trace_zones", "traces",
    "write_trace", "young_interval",
]

"""Strategy files run as the public Can't Be Late harnesses run them (docs/plugins.md#harness-profiles).

The harnesses that score machine-evolved `sky_spot` strategies (ADRS/OpenEvolve, the ADRS Leaderboard, Frontier-CS,
GEPA) all descend from one simulator whose base Strategy class does more than the strategy's own _step(): each tick
it credits the last tick's work from the cluster type held and the restart overhead still due (the strategy's
task_done_time *is* the run's progress), applies a strong-guarantee override, turns a spot request without spot into
NONE, and starts the restart overhead when the cluster type changes. run_window() reproduces that loop: the base
class of spotsim's stand-in sky_spot package (spotsim.sky_spot.strategies.strategy.Strategy.step) and HarnessEnv
below, with a fresh strategy object per run built from the harness's own command line. Facts from the harnesses'
code are listed in ../shared/data/validation/policy-harnesses/README.md; tests/python/test_harness.py checks this
runner against the ADRS harness's recorded runs, run for run.

Prices are the harnesses': on-demand 3.06 USD/h for every env (k80 and 8-GPU ones included), spot 3.06 / K with
K = 3.06 / 0.9731, billed per tick of the cluster type the env held.
"""
import argparse
import math
import pathlib

from .sky_spot.utils import ClusterType
from .strategy_files import _shim_installed, strategy_classes

ON_DEMAND_PRICE = 3.06
COST_K = 3.06 / 0.9731
PRICES = {ClusterType.ON_DEMAND: ON_DEMAND_PRICE, ClusterType.SPOT: ON_DEMAND_PRICE / COST_K, ClusterType.NONE: 0.0}


class HarnessEnv:
    """One window of a recording as the harness's trace env serves it: `available[t]` says whether spot can be had
    during tick t; the env keeps what was held in each tick and bills it."""

    def __init__(self, available, gap_seconds):
        self._available = list(available)
        self.gap_seconds = float(gap_seconds)
        self.cluster_type_history = []
        self.cluster_type = ClusterType.NONE
        self.tick = 0
        self.observed_tick = -1
        self.overrides = 0  # ticks whose request the strong-guarantee override changed

    @property
    def elapsed_seconds(self):
        return self.tick * self.gap_seconds

    def spot_available(self):
        if self.tick >= len(self._available):
            raise ValueError(f"Timestamp {self.tick} out of range {len(self._available)}")
        return bool(self._available[self.tick])

    def observe(self):
        """What was held in the last tick and whether spot is there now; a held spot instance without spot is lost."""
        if self.observed_tick != self.tick - 1:
            raise RuntimeError(f"the env was observed out of turn at tick {self.tick}")
        self.observed_tick = self.tick
        has_spot = self.spot_available()
        last = self.cluster_type
        self.cluster_type_history.append(last)
        if self.cluster_type == ClusterType.SPOT and not has_spot:
            self.cluster_type = ClusterType.NONE
        return last, has_spot

    def step(self, request):
        if self.observed_tick != self.tick:
            self.observe()
        if request == ClusterType.SPOT and not self.spot_available():
            raise ValueError("Spot not available")
        self.cluster_type = request
        self.tick += 1

    @property
    def accumulated_cost(self):
        return sum(PRICES[c] * self.gap_seconds / 3600 for c in self.cluster_type_history)


class HarnessTask:
    """The single task the harness gives reset(): its duration, and the strategy's task_done_time as its progress."""

    def __init__(self, duration_hours):
        self._duration_seconds = duration_hours * 3600
        self._progress = []

    def set_progress_source(self, task_done_time):
        self._progress = task_done_time

    def get_total_duration_seconds(self):
        return self._duration_seconds

    def get_total_duration_hours(self):
        return self._duration_seconds / 3600.0

    @property
    def is_done(self):
        return max(0.0, self._duration_seconds - sum(self._progress)) <= 1e-8


def harness_parser(prog):
    """The harness's global options, registered before a strategy's _from_args() parses the command line."""
    parser = argparse.ArgumentParser(prog=prog, add_help=False)
    parser.add_argument("--strategy-file")
    parser.add_argument("--env", default="trace")
    parser.add_argument("--trace-file")
    parser.add_argument("--deadline-hours", type=float)
    parser.add_argument("--task-duration-hours", type=float, nargs="+")
    parser.add_argument("--restart-overhead-hours", type=float, nargs="+")
    parser.add_argument("--checkpoint-size-gb", type=float, default=50.0)
    parser.add_argument("--inter-task-overhead", type=float, nargs="+", default=[0.0])
    parser.add_argument("--silent", action="store_true")
    return parser


class StrategyFile:
    """A strategy file imported once; each run builds a fresh object of its Strategy class (as a harness does)."""

    def __init__(self, path, name=None):
        self.path = pathlib.Path(path)
        classes = strategy_classes(self.path)
        if name is not None:
            classes = [c for c in classes if c.NAME == name]
        if len(classes) != 1:
            names = ", ".join(repr(c.NAME) for c in strategy_classes(self.path)) or "none"
            raise ValueError(f"{self.path}: expected one Strategy subclass"
                             f"{'' if name is None else f' named {name!r}'}; found {names}")
        self.cls = classes[0]
        self.name = self.cls.NAME

    def build(self, deadline_hours, duration_hours, overhead_hours, trace_file="window.json"):
        argv = [str(self.path), f"--strategy-file={self.path}", "--env=trace", f"--trace-file={trace_file}",
                f"--task-duration-hours={duration_hours}", f"--deadline-hours={deadline_hours}",
                f"--restart-overhead-hours={overhead_hours}", "--silent"]
        with _shim_installed(argv):
            return self.cls._from_args(harness_parser(str(self.path)))


def run_window(strategy_file, available, gap_seconds, deadline_hours, overhead_hours, duration_hours=48.0):
    """One run as the harness makes it. Returns {"ok", "cost", "ticks", "completion_hours", "deadline_met",
    "overrides"}; a run that raises is {"ok": False, "error": "..."} (the harness's run fails there too)."""
    try:
        if duration_hours + overhead_hours > deadline_hours:
            raise ValueError(f"Task infeasible: minimum time needed ({duration_hours + overhead_hours:.2f}h) exceeds "
                             f"deadline ({deadline_hours:.2f}h)")
        if len(available) * gap_seconds / 3600 < deadline_hours:
            raise ValueError(f"Trace data insufficient: {len(available)} ticks of {gap_seconds} s are less than the "
                             f"deadline ({deadline_hours:.2f}h)")
        strategy = strategy_file.build(deadline_hours, duration_hours, overhead_hours)
        env = HarnessEnv(available, gap_seconds)
        task = HarnessTask(duration_hours)
        strategy.deadline = deadline_hours * 3600
        strategy.task_duration = task.get_total_duration_seconds()
        strategy.restart_overhead = overhead_hours * 3600
        strategy.reset(env, task)
        task.set_progress_source(strategy.task_done_time)
        while not strategy.task_done:
            env.step(strategy.step())
        cost, ticks = env.accumulated_cost, env.tick
        strategy.step()  # the harness realises the last tick once more after the work is done
        env.step(ClusterType.NONE)
    except Exception as error:  # noqa: BLE001 -- a strategy may raise anything; the run then fails, as in the harness
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    # The work ended during the tick before the last observation: completion at the end of that tick.
    completion_hours = (ticks - 1) * gap_seconds / 3600
    return {"ok": True, "cost": cost, "ticks": ticks, "completion_hours": completion_hours,
            "deadline_met": completion_hours <= deadline_hours + 1e-9, "overrides": env.overrides}

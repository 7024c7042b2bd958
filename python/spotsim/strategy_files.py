"""Can't Be Late strategy files, unmodified (docs/plugins.md#cant-be-late-strategy-files).

A file written for the `sky_spot` simulator of Wu et al. (NSDI'24) — the style of the ADRS/OpenEvolve, GEPA and
Frontier-CS benchmarks — defines a Strategy subclass whose ``_step(last_cluster_type, has_spot)`` returns a
ClusterType. load_strategy() imports it against spotsim's stand-in sky_spot package; StrategyPolicy runs it as a
spotsim selection policy in the Can't Be Late compatibility mode (--mode cant-be-late), asked at every tick.

What the strategy sees before each _step(), from the engine's observation (all in seconds):
  env.elapsed_seconds, env.gap_seconds (the tick), env.tick (ticks elapsed); deadline, task_duration,
  restart_overhead (the job's deadline, work and start-up); task_done_time (work done in each elapsed tick: its sum
  is the progress); task_done; remaining_restart_overhead (start-up still due on the held instance, 0 when none is
  held); last_cluster_type is what is held for the coming tick before the decision (NONE right after a preemption).
"""
import argparse
import contextlib
import importlib.util
import pathlib
import sys

from . import sky_spot
from ._spotsim import SelectionDecision
from .sky_spot import strategies as shim_strategies
from .sky_spot import utils as shim_utils
from .sky_spot.strategies import multi_strategy as shim_multi_strategy
from .sky_spot.strategies import strategy as shim_strategy

ClusterType = shim_utils.ClusterType
Strategy = shim_strategy.Strategy
SHIM_MODULES = {"sky_spot": sky_spot, "sky_spot.utils": shim_utils, "sky_spot.strategies": shim_strategies,
                "sky_spot.strategies.strategy": shim_strategy,
                "sky_spot.strategies.multi_strategy": shim_multi_strategy}
# What is held, by the per-tick protocol's codes (Purchase values: 0 none, 1 spot, 2 on-demand).
HELD_BY_CODE = (ClusterType.NONE, ClusterType.SPOT, ClusterType.ON_DEMAND)


@contextlib.contextmanager
def _shim_installed(argv):
    """sky_spot resolves to the stand-in, and sys.argv is the strategy's own options, only inside the block."""
    saved = {name: sys.modules.get(name) for name in SHIM_MODULES}
    saved_argv = sys.argv
    sys.modules.update(SHIM_MODULES)
    sys.argv = argv
    try:
        yield
    finally:
        sys.argv = saved_argv
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def load_module(path):
    """A strategy file imported against the stand-in sky_spot package."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such strategy file")
    spec = importlib.util.spec_from_file_location(f"spotsim_strategy_{path.stem}", path)
    if spec is None:
        raise ValueError(f"{path}: expected a Python strategy file")
    module = importlib.util.module_from_spec(spec)
    with _shim_installed([str(path)]):
        spec.loader.exec_module(module)
    return module


def strategy_classes_of(module):
    """(attribute name, class) of every Strategy subclass a module holds (its own and imported ones, the base class
    aside), in the module's order."""
    return [(k, v) for k, v in vars(module).items()
            if isinstance(v, type) and issubclass(v, Strategy) and v is not Strategy]


def module_strategy_classes(path):
    """strategy_classes_of() the strategy file's module."""
    return strategy_classes_of(load_module(path))


def strategy_classes(path):
    """The Strategy subclasses a strategy file defines, in definition order."""
    stem = f"spotsim_strategy_{pathlib.Path(path).stem}"
    return [c for _, c in module_strategy_classes(path) if c.__module__ == stem]


def load_strategy(path, name=None, args=(), spec_path=None):
    """An instance of the file's Strategy subclass (the one whose NAME is `name` when it defines several).

    args -- the strategy's own command-line options (parsed by its _from_args with parse_known_args);
    spec_path -- passed to solve(spec_path) when the class defines it (Frontier-CS style).
    """
    classes = strategy_classes(path)
    if name is not None:
        classes = [c for c in classes if c.NAME == name]
    if len(classes) != 1:
        names = ", ".join(repr(c.NAME) for c in strategy_classes(path)) or "none"
        raise ValueError(f"{path}: expected one Strategy subclass{'' if name is None else f' named {name!r}'}; "
                         f"found {names}")
    parser = argparse.ArgumentParser(prog=str(path), add_help=False)
    with _shim_installed([str(path), *map(str, args)]):
        strategy = classes[0]._from_args(parser)
        if spec_path is not None and hasattr(strategy, "solve"):
            strategy.solve(str(spec_path))
    return strategy


class StrategyEnv:
    """The env a strategy reads: elapsed_seconds, gap_seconds, tick."""

    def __init__(self):
        self.elapsed_seconds = 0.0
        self.gap_seconds = 0.0
        self.tick = 0


class StrategyPolicy:
    """A loaded strategy as a spotsim selection policy (one zone; --mode cant-be-late)."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.name = getattr(strategy, "NAME", type(strategy).__name__)
        self._fresh = True
        self._progress = 0.0

    def reset(self):
        self._fresh = True

    def _begin(self, obs):
        if obs.decision_tick is None:
            raise ValueError(f"strategy {self.name!r} decides per tick: run it with mode='cant-be-late'")
        if obs.zone_count != 1:
            raise ValueError(f"strategy {self.name!r}: expected a trace with one zone, got {obs.zone_count}")
        job = obs.job
        if job["deadline"] is None:
            raise ValueError(f"strategy {self.name!r}: expected a job with a deadline")
        s = self.strategy
        s.deadline, s.task_duration, s.restart_overhead = job["deadline"], job["work"], job["startup"]
        self._env = StrategyEnv()
        s.reset(self._env, None)
        self._fresh = False
        self._progress = 0.0

    # The engine uses the per-tick protocol (begin once per run, then decide_tick with plain numbers: no
    # Observation object, no decision object) wherever it applies: one zone, the Can't Be Late mode. decide() is the
    # same step through the Observation, for everything else (where _begin says why a strategy cannot run).
    def begin(self, obs):
        self._begin(obs)
        self._gap = obs.decision_tick

    def decide_tick(self, elapsed, progress, held, instance_age, has_spot):
        s, env = self.strategy, self._env
        gap = self._gap
        env.elapsed_seconds, env.gap_seconds = elapsed, gap
        env.tick = tick = round(elapsed / gap)
        if tick > 0:
            s.task_done_time.append(progress - self._progress)
        self._progress = progress
        s.remaining_restart_overhead = 0.0 if held == 0 else max(0.0, s.restart_overhead - instance_age)
        choice = s._step(HELD_BY_CODE[held], has_spot)
        if choice is ClusterType.SPOT:
            if not has_spot:
                raise ValueError(f"strategy {self.name!r}: _step() returned ClusterType.SPOT while spot is unavailable")
            return 1
        if choice is ClusterType.ON_DEMAND:
            return 2
        if choice is ClusterType.NONE:
            return 0
        raise TypeError(f"strategy {self.name!r}: _step() returned {choice!r}, expected ClusterType.SPOT, "
                        "ClusterType.ON_DEMAND or ClusterType.NONE")

    def decide(self, obs):
        if self._fresh:
            self.begin(obs)
        code = self.decide_tick(obs.elapsed, obs.progress, int(obs.purchase), obs.instance_age, obs.spot_available[0])
        if code == 1:
            return SelectionDecision.spot(0)
        return SelectionDecision.on_demand(0) if code == 2 else SelectionDecision.wait()


def strategy_policy(path, name=None, args=(), spec_path=None):
    """load_strategy() wrapped as a policy for simulate(..., mode='cant-be-late', checkpoint='continuous')."""
    return StrategyPolicy(load_strategy(path, name, args, spec_path))

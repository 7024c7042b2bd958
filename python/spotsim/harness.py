"""Strategy files run as the public Can't Be Late harnesses run them (docs/plugins.md#harness-profiles).

The harnesses that score machine-evolved `sky_spot` strategies (ADRS/OpenEvolve, the ADRS Leaderboard, Frontier-CS,
GEPA) all descend from one simulator whose base Strategy class does more than the strategy's own _step(): each tick
it credits the last tick's work from the cluster type held and the restart overhead still due (the strategy's
task_done_time *is* the run's progress), applies a strong-guarantee override, turns a spot request without spot into
NONE, and starts the restart overhead when the cluster type changes. run_window() reproduces that loop: the base
class of spotsim's stand-in sky_spot package (spotsim.sky_spot.strategies.strategy.Strategy.step) and HarnessEnv
below, with a fresh strategy object per run built from the harness's own command line. Facts from the harnesses'
code are listed in ../shared/data/validation/policy-harnesses/README.md; tests/python/test_harness.py,
test_harness_leaderboard.py, test_harness_frontier.py and test_harness_gepa.py check this runner against the
ADRS/OpenEvolve, ADRS-Leaderboard, Frontier-CS and GEPA harnesses' recorded runs, run for run.

Prices are the harnesses': on-demand 3.06 USD/h for every env (k80 and 8-GPU ones included), spot 3.06 / K with
K = 3.06 / 0.9731, billed per tick of the cluster type the env held.
"""
import argparse
import json
import os
import pathlib

from .sky_spot.strategies.strategy import Strategy
from .sky_spot.utils import ClusterType
from .strategy_files import _shim_installed, load_module, strategy_classes_of

ON_DEMAND_PRICE = 3.06
COST_K = 3.06 / 0.9731
PRICES = {ClusterType.ON_DEMAND: ON_DEMAND_PRICE, ClusterType.SPOT: ON_DEMAND_PRICE / COST_K, ClusterType.NONE: 0.0}


class HarnessEnv:
    """One window of a recording as the harness's trace env serves it: `available[t]` says whether spot can be had
    during tick t; the env keeps what was held in each tick and bills it."""

    def __init__(self, available, gap_seconds, past_end_fails=False, override_enabled=True):
        self._available = list(available)
        self.override_enabled = override_enabled  # False only to count what the override saved
        # Asked for a tick past the recording, ADRS/OpenEvolve's base class takes it as "no spot" (and credits no
        # work: the run never ends); the Leaderboard's and Frontier-CS's let the error end the run.
        self.past_end_fails = past_end_fails
        self.gap_seconds = float(gap_seconds)
        self.overrides = 0  # ticks whose request the strong-guarantee override changed
        self.job_from_args = True  # the base class's reset() reads the job from the strategy's args, as there
        self.reset()

    def reset(self):
        self.cluster_type_history = []
        self.cluster_type = ClusterType.NONE
        self.tick = 0
        self.observed_tick = -1

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

    # The rest of the harness's TraceEnv a strategy may call: prices, and two looks ahead at the recording.
    NAME = "trace"

    def get_constant_cost_map(self):
        return dict(PRICES)

    def get_price(self):
        return dict(PRICES)

    def next_wait_spot_length(self):
        """(ticks until spot is back, ticks it then lasts) from the current tick, as TraceEnv counts them."""
        wait = spot = 0
        start = self.tick
        if not self.spot_available():
            for i in range(start, len(self._available)):
                if self._available[i]:
                    start = i
                    break
                wait += 1
        for i in range(start, len(self._available)):
            if not self._available[i]:
                break
            spot += 1
        return wait, spot

    def get_trace_before_end(self, end):
        """The recording up to `end` seconds, in the trace file's encoding (1 = no spot)."""
        import math
        return [0 if a else 1 for a in self._available[:int(math.ceil(end / self.gap_seconds))]]


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

    def get_current_progress_seconds(self):
        return sum(self._progress or [])

    def get_remaining_duration_seconds(self):
        return max(0.0, self._duration_seconds - self.get_current_progress_seconds())

    def get_config(self):
        return {"duration": self._duration_seconds / 3600, "checkpoint_size_gb": 50.0}

    def get_info(self):
        return {"task_type": "SingleTask", "Done(seconds)": self.get_current_progress_seconds(),
                "Remaining(seconds)": self.get_remaining_duration_seconds(), "task_is_done": self.is_done,
                "Target(seconds)": self._duration_seconds}

    @property
    def is_done(self):
        # (get_remaining_duration_seconds() <= 1e-8, inlined: it is asked every tick)
        return max(0.0, self._duration_seconds - sum(self._progress or [])) <= 1e-8


def harness_parser(prog):
    """The options of the ADRS/OpenEvolve simulator's main.py (GEPA vendors the same file) and those its TraceEnv
    adds (--trace-file, --env-start-hours), with their defaults, registered before a strategy's _from_args() parses
    the command line. It has no --silent, which the harness's command line holds (a strategy that calls
    parse_args() exits with 'unrecognized arguments: --silent' there), and no --inter-task-overhead."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--scenarios-config", type=str)
    parser.add_argument("--run-scenarios", type=str, nargs="+")
    parser.add_argument("--config", type=str, default=None)
    parser.add_argument("--deadline-hours", type=float, default=10)
    parser.add_argument("--task-duration-hours", type=float, nargs="+", default=[10])
    parser.add_argument("--restart-overhead-hours", type=float, nargs="+", default=[0.2])
    parser.add_argument("--checkpoint-size-gb", type=float, default=50.0)
    parser.add_argument("--output-dir", type=str, default="exp/")
    parser.add_argument("--strategy-file", type=str, default=None)
    parser.add_argument("--strategy", type=str, default="strawman")
    parser.add_argument("--env", type=str, default="trace")
    parser.add_argument("--trace-file", type=str)
    parser.add_argument("--env-start-hours", type=float, default=0)
    return parser


def leaderboard_parser(prog):
    """The ADRS-Leaderboard's parser (its sim_worker._build_parser): other options and defaults than ADRS/OpenEvolve's
    main.py (--silent and --strategy 'custom' there; no --scenarios-config, --run-scenarios or --config)."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--deadline-hours", type=float, default=52.0)
    parser.add_argument("--task-duration-hours", type=float, nargs="+", default=[48.0])
    parser.add_argument("--restart-overhead-hours", type=float, nargs="+", default=[0.0])
    parser.add_argument("--env-start-hours", type=float, default=0.0)
    parser.add_argument("--output-dir", type=str)
    parser.add_argument("--trace-file", type=str)
    parser.add_argument("--strategy-file", type=str)
    parser.add_argument("--checkpoint-size-gb", type=float, default=50.0)
    parser.add_argument("--strategy", type=str, default="custom")
    parser.add_argument("--env", type=str, default="trace")
    parser.add_argument("--silent", action="store_true")
    return parser


# The ADRS harness's built-in strategy names: its registry refuses a file's class that takes one (or 'abstract').
ADRS_BUILTIN_NAMES = frozenset(
    "multi_region_base strawman time_sliced time_sliced_by_num random_time_sliced group_time_sliced loose_time_sliced "
    "loose_time_sliced_by_num loose_time_sliced_vdt_by_num on_demand only_spot ideal_no_overhead rc_threshold "
    "rc_dc_threshold rc_dd_threshold rc_vd_threshold rc_vdt_threshold rc_vdt_allow_idle_threshold rc_v2dt_threshold "
    "rc_vd_no_k_threshold rc_lw_threshold rc_ec_threshold rc_gec_threshold rc_cr_threshold rc_cr_no_keep_threshold "
    "rc_1cr_threshold rc_next_spot_threshold rc_next_spot_single_threshold rc_next_wait_spot_threshold quick_optimal "
    "quick_optimal_more_sliced_by_num rc_cr_threshold_no_condition2 multi_region_rc_cr_threshold "
    "multi_region_rc_cr_no_cond2 multi_region_rc_cr_randomized multi_region_rc_cr_reactive lazy_cost_aware_multi "
    "evolutionary_simple_v2".split())
# GEPA's vendored simulator (gepa-ai/gepa @ b265bf9c, examples/adrs/can_be_late/utils/simulator) imports no built-in
# strategy (its sky_spot/strategies/__init__.py imports strategy.py alone): its registry holds only this NAME.
GEPA_BUILTIN_NAMES = frozenset({"multi_region_base"})


class StrategyFile:
    """A strategy file imported once; each run builds a fresh object of its Strategy class, as the harness does.

    entry "adrs" (ADRS/OpenEvolve): the source must compile and name `class`, `Strategy` and `_step` (the
    evaluator's first stage), else every run fails; the class is the Strategy subclass whose attribute name sorts
    first in the module, built by its _from_args(parser) from the harness's command line (main.py's parser; an
    absolute --trace-file naming the run's window file); the harness's class registry refuses NAME 'abstract', a NAME
    taken by one of its built-in strategies, or two classes of one NAME, and its base class has no _from_args. Entry
    "gepa" (GEPA's Can't Be Late example): the same, with GEPA's own check of the source, a registry that holds no
    built-in strategy (only 'multi_region_base'), and an --output-dir on the command line. Entry "leaderboard" (the
    ADRS-Leaderboard, sim_worker.py): the first Strategy subclass in the module's namespace (definition and import
    order), built the same way with the Leaderboard's parser; its registry refuses no NAME. Entry "frontier"
    (Frontier-CS): the class named Solution, which the harness checks before any run (a Strategy subclass with
    solve(); the source names class, Strategy and _step) and otherwise refuses the file, built as Solution(args) with
    a namespace of deadline_hours, restart_overhead_hours and inter_task_overhead, then solve(spec_path) with the
    run's spec file (its trace_file the run's window). Entry "frontier-multi" (Frontier-CS multi-region): built the
    same way; the class is Solution if it is a MultiRegionStrategy, else the module's first MultiRegionStrategy
    subclass.
    A file that cannot be used raises when each run is built, so its runs fail as the harness's do."""

    def __init__(self, path, name=None, entry="adrs"):
        self.spec_dir = None  # (Frontier-CS) where evaluate() wrote the runs' spec files, before any worker ran
        if entry not in ("adrs", "gepa", "leaderboard", "frontier", "frontier-multi"):
            raise ValueError(f"unknown entry {entry!r}; expected adrs, gepa, leaderboard, frontier or frontier-multi")
        self.path = pathlib.Path(path)
        self.entry = entry
        self.problem = None
        self.module_solution = None  # the module's attribute Solution, whatever it is (the multi harness checks it)
        if entry in ("adrs", "gepa"):
            self.problem = self._source_problem()
            if self.problem is not None:  # the harness runs nothing of a file its check refuses
                self.cls, self.name = None, self.path.stem
                return
        try:
            module = load_module(self.path)
        except FileNotFoundError:
            raise
        except Exception as error:  # noqa: BLE001 -- a file that fails to import fails every run, as there
            self.cls, self.name, self.problem = None, self.path.stem, error
            return
        self.module_solution = vars(module).get("Solution")
        self.defines_solution = "Solution" in vars(module)
        classes = strategy_classes_of(module)
        self.cls = self._choose(classes, name)
        self.name = getattr(self.cls, "NAME", self.path.stem) if self.cls is not None else self.path.stem

    def _source_problem(self):
        """ADRS/OpenEvolve's evaluate_stage1 and GEPA's simulation._check_syntax: the source compiles and names
        `class`, `Strategy` and `_step`."""
        source = self.path.read_text(encoding="utf-8")
        try:
            compile(source, str(self.path), "exec")
        except SyntaxError as error:
            return error
        if "class" not in source or "Strategy" not in source:
            return ValueError("No Strategy class found" if self.entry == "gepa" else "Missing Strategy/_step")
        if "_step" not in source:
            return ValueError("No _step method found" if self.entry == "gepa" else "Missing Strategy/_step")
        return None

    def _choose(self, classes, name):
        """classes: (attribute name, class) in the module's order."""
        classes = [(k, c) for k, c in classes if c.__name__ != "MultiRegionStrategy"]
        if name is not None:
            chosen = [c for _, c in classes if getattr(c, "NAME", None) == name]
            if not chosen:
                raise ValueError(f"{self.path}: no Strategy subclass named {name!r}")
            return chosen[0]
        if self.entry == "frontier-multi":
            from .sky_spot.strategies.multi_strategy import MultiRegionStrategy
            multi = [c for _, c in classes if issubclass(c, MultiRegionStrategy)]
            solution = dict(classes).get("Solution")
            if solution is not None and issubclass(solution, MultiRegionStrategy):
                return solution
            if not multi:
                self.problem = AttributeError(f"No Solution or MultiRegionStrategy subclass found in {self.path}")
                return None
            return multi[0]
        if self.entry == "frontier":
            return self._frontier_solution()
        if not classes:
            self.problem = AttributeError(f"No concrete strategy class found in {self.path}")
            return None
        if self.entry == "leaderboard":  # sim_worker._first_strategy_class: module.__dict__ order; no registry check
            return classes[0][1]
        seen = set()
        builtin = GEPA_BUILTIN_NAMES if self.entry == "gepa" else ADRS_BUILTIN_NAMES
        for c in {id(c): c for _, c in classes}.values():
            if c.NAME == "abstract" or c.NAME in builtin or c.NAME in seen:
                self.problem = AssertionError(f"Name {c.NAME} already exists")
            seen.add(c.NAME)
        return min(classes, key=lambda kc: kc[0])[1]  # dir(module) order: the first attribute name

    def _frontier_solution(self):
        """Frontier-CS checks the file before any run (run_evaluator.load_and_validate_solution, then
        cbl_evaluator.evaluate_stage1) and scores it 0 when a check fails: its sim_worker's fallback to another
        Strategy subclass is never reached."""
        solution = self.module_solution
        try:
            if not self.defines_solution:
                raise AttributeError("solution.py must define a 'Solution' class")
            if not issubclass(solution, Strategy):  # (a Solution that is no class: TypeError from issubclass, too)
                raise TypeError("Solution must inherit from sky_spot.strategies.strategy.Strategy")
            if not callable(getattr(solution, "solve", None)):
                raise AttributeError("Solution must implement solve(self, spec_path)")
            source = self.path.read_text(encoding="utf-8")
            if "class" not in source or "Strategy" not in source or "_step" not in source:
                raise ValueError("Missing Strategy/_step")
        except (AttributeError, TypeError, ValueError) as error:
            self.problem = error
            return solution if isinstance(solution, type) else None
        return solution

    def build(self, deadline_hours, duration_hours, overhead_hours, trace_file="window.json", spec_path=None):
        if self.problem is not None:
            raise self.problem
        if self.entry in ("frontier", "frontier-multi"):
            # Solution(args), then solve() with the run's spec file (run_window and evaluate() write it first: the
            # workers write nothing).
            with _shim_installed([str(self.path)]):
                strategy = self.cls(argparse.Namespace(deadline_hours=deadline_hours,
                                                       restart_overhead_hours=[overhead_hours],
                                                       inter_task_overhead=[0.0]))
                strategy.solve(spec_path)
            return strategy
        if all("_from_args" not in vars(k) for k in self.cls.__mro__ if k.__module__ != Strategy.__module__):
            raise NotImplementedError(f"{self.cls.__name__} defines no _from_args")  # the harness's base has none
        argv = [str(self.path), f"--strategy-file={self.path}", "--env=trace", f"--trace-file={trace_file}",
                f"--task-duration-hours={duration_hours}", f"--deadline-hours={deadline_hours}",
                f"--restart-overhead-hours={overhead_hours}", "--silent"]
        if self.entry == "gepa":  # (GEPA's run_simulation: a fresh temporary folder per sample; here such a path)
            import tempfile
            argv.append(f"--output-dir={os.path.join(tempfile.gettempdir(), 'cant_be_late_run')}")
        with _shim_installed(argv):
            parser = leaderboard_parser if self.entry == "leaderboard" else harness_parser
            return self.cls._from_args(parser(str(self.path)))


LETTERS = {ClusterType.NONE: "N", ClusterType.SPOT: "S", ClusterType.ON_DEMAND: "O"}


class RunTimeLimit(BaseException):
    """A run went past its time limit (a BaseException, so that a strategy's `except Exception` cannot swallow it)."""


def spec_file(folder, env, window, deadline_hours, duration_hours, overhead_hours):
    return os.path.join(folder, f"spec_{env}_{window}_{deadline_hours:g}_{duration_hours:g}_{overhead_hours:g}.json")


def window_file(folder, env, window):
    """Where a run's window lies, laid out as the harness's data (its path names the env, its name the window)."""
    return os.path.join(folder, "real", env, "traces", "random_start", f"{window}.json")


def write_window(path, available, gap_seconds):
    """A window as the harness's trace files hold it (metadata.gap_seconds; data: 1 = no spot, 0 = spot)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"metadata": {"gap_seconds": gap_seconds}, "data": [0 if a else 1 for a in available]}, f)


def _reported_cost(value):
    """The cost simulate() prints when a strategy's info() carries "Cost" (np.mean of it): a number."""
    import numbers
    if not isinstance(value, numbers.Real):
        raise TypeError(f"the run's cost is {type(value).__name__} {value!r}, not a number")
    return float(value)


def drive(strategy, env, duration_hours, deadline_hours, max_ticks, timeline=False, writes_stats=False):
    """The harness's simulate() of one run of a built strategy on an env: reset, the env reset, reset again; a step
    per tick until the work is done; the cost then, and the last tick realised once more. With `writes_stats`
    (ADRS/OpenEvolve's and GEPA's simulate(): every tick logs {**env.info(), **strategy.info()}, the run's cost is
    the last tick's "Cost" there, which a strategy's own info() may set, and vars(args) and the ticks' infos are
    written as JSON), a strategy's own info() must be a mapping, its "Cost" is the cost, and what JSON cannot hold
    fails the run. Returns {"ok", "cost", "ticks", "completion_hours", "deadline_met", "overrides"} (with
    `timeline`, "held": a letter per tick from the start, N none, S spot, O on-demand, as billed), or {"ok": False,
    "error"} when the strategy raises."""
    # simulate() logs the strategy's info() after every tick: only a strategy's own info() can do anything there
    # (raise, keep state), so only that one is called (the base class's costs a sum per tick).
    own_info = type(strategy).info is not Strategy.info
    infos = []  # (writes_stats) the strategy's own info() of each tick
    try:
        task = HarnessTask(duration_hours)
        strategy.reset(env, task)  # (the base class's reset() points the task at its task_done_time)
        strategy.name  # noqa: B018 -- simulate() names the run: a strategy that replaced the property fails there
        env.reset()
        strategy.reset(env, task)
        while not strategy.task_done:
            if not env.override_enabled and env.tick > max_ticks:
                # (Without the override a strategy may wait for spot forever past the recording; the harness
                # would until its time limit: the counterfactual run stops there, deadline missed.)
                raise RuntimeError("without the override the run went past the recording")
            env.step(strategy.step())
            if own_info:
                info = strategy.info()
                if writes_stats:
                    infos.append({**info})
        cost, ticks = env.accumulated_cost, env.tick
        if infos and "Cost" in infos[-1]:
            cost = _reported_cost(infos[-1]["Cost"])
        strategy.step()  # the harness realises the last tick once more after the work is done
        env.step(ClusterType.NONE)
        if own_info:
            final = strategy.info()
            if writes_stats:
                {**final}  # noqa: B018 -- simulate() unpacks the last one too
        json.dumps(strategy.config)  # simulate() writes the strategy's config with the run's results
        if writes_stats:
            json.dumps({"args": vars(strategy.args), "history": infos})
    except (Exception, SystemExit, RunTimeLimit) as error:  # noqa: BLE001 -- a strategy may raise anything
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    # The work ended during the tick before the last observation: completion at the end of that tick.
    completion_hours = (ticks - 1) * env.gap_seconds / 3600
    out = {"ok": True, "cost": cost, "ticks": ticks, "completion_hours": completion_hours,
           "deadline_met": completion_hours <= deadline_hours + 1e-9, "overrides": env.overrides}
    if timeline:
        # history[k] is what was held during tick k - 1 (history[0]: nothing before the start).
        out["held"] = "".join(LETTERS[c] for c in env.cluster_type_history[1:ticks])
    return out


def run_window(strategy_file, available, gap_seconds, deadline_hours, overhead_hours, duration_hours=48.0,
               timeline=False, override=True, spec_path=None, trace_file=None):
    """One run as the harness makes it. Returns {"ok", "cost", "ticks", "completion_hours", "deadline_met",
    "overrides"}; a run that raises (or exits) is {"ok": False, "error": "..."} (the harness's run fails there too).
    With `timeline`, also "held" (one letter per tick from the start: N none, S spot, O on-demand, billed as such) and
    "spot" (1/0: spot there in that tick): the compact per-run feedback an evolution loop can hand to a model.
    Entries adrs and gepa: the strategy's --trace-file is `trace_file`, the window's file as the harness holds it,
    or one written for the run."""
    import tempfile
    if strategy_file.entry in ("adrs", "gepa") and trace_file is None:
        with tempfile.TemporaryDirectory() as scratch:  # the window's own file, there for the whole run
            trace_file = os.path.join(scratch, "window.json")
            write_window(trace_file, available, gap_seconds)
            return run_window(strategy_file, available, gap_seconds, deadline_hours, overhead_hours, duration_hours,
                              timeline, override, spec_path, trace_file)
    try:
        if duration_hours + overhead_hours > deadline_hours:
            raise ValueError(f"Task infeasible: minimum time needed ({duration_hours + overhead_hours:.2f}h) exceeds "
                             f"deadline ({deadline_hours:.2f}h)")
        if len(available) * gap_seconds / 3600 < deadline_hours:
            raise ValueError(f"Trace data insufficient: {len(available)} ticks of {gap_seconds} s are less than the "
                             f"deadline ({deadline_hours:.2f}h)")
        if strategy_file.entry == "frontier" and spec_path is None:
            import tempfile
            with tempfile.TemporaryDirectory() as scratch:  # the spec names the window's own file, as there
                trace_file = os.path.join(scratch, "window.json")
                write_window(trace_file, available, gap_seconds)
                spec_path = os.path.join(scratch, "spec.json")
                with open(spec_path, "w") as f:
                    json.dump({"deadline": deadline_hours, "duration": duration_hours, "overhead": overhead_hours,
                               "trace_file": trace_file}, f)
                strategy = strategy_file.build(deadline_hours, duration_hours, overhead_hours, spec_path=spec_path)
        elif trace_file is not None:
            strategy = strategy_file.build(deadline_hours, duration_hours, overhead_hours, trace_file=trace_file,
                                           spec_path=spec_path)
        else:
            strategy = strategy_file.build(deadline_hours, duration_hours, overhead_hours, spec_path=spec_path)
    except (Exception, SystemExit, RunTimeLimit) as error:  # noqa: BLE001 -- a strategy may raise anything
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    env = HarnessEnv(available, gap_seconds, past_end_fails=strategy_file.entry in ("frontier", "leaderboard"),
                     override_enabled=override)
    out = drive(strategy, env, duration_hours, deadline_hours, len(available), timeline,
                writes_stats=strategy_file.entry in ("adrs", "gepa"))
    if timeline and out["ok"]:
        out["spot"] = "".join("1" if a else "0" for a in list(available)[:len(out["held"])])
    return out


# --- Harness profiles: each harness's grid, windows and score (facts: ../shared/data/validation/policy-harnesses) ---

ALL_ENVS = ["us-west-2a_k80_1", "us-west-2a_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8", "us-west-2b_k80_1",
            "us-west-2b_k80_8", "us-west-2b_v100_1", "us-west-2b_v100_8"]
FRONTIER_AVAILABILITY = {
    "high": ["us-west-2b_k80_1", "us-west-2b_v100_8", "us-west-2a_v100_8", "us-west-2b_v100_1"],
    "low": ["us-west-2a_k80_8", "us-west-2b_k80_8", "us-west-2a_v100_1", "us-west-2a_k80_1"],
}
FRONTIER_AVAILABILITY["mixed"] = FRONTIER_AVAILABILITY["high"] + FRONTIER_AVAILABILITY["low"]
FRONTIER_DEADLINES = {"tight": 52.0, "loose": 70.0}
FRONTIER_OVERHEADS = {"small": 0.05, "large": 0.20}
F1_ON_DEMAND = 3.06 * 48   # the score's anchors: constants, the same for every env
F1_SPOT = 0.9731 * 48
FAILED_SAMPLE = -100000.0  # ADRS/OpenEvolve and GEPA: a failure


class Profile:
    """A harness's grid (envs x deadlines x changeovers x its 30 windows per env, a 48 h job) and its score."""

    def __init__(self, name, envs, deadlines, overheads, score, entry="adrs", window_major=False):
        self.name, self.envs, self.deadlines, self.overheads, self.score = name, envs, deadlines, overheads, score
        self.entry = entry  # how a run builds the strategy (StrategyFile)
        self.window_major = window_major  # GEPA's test split: env, window, deadline, changeover

    def runs(self):
        """(env, window id, deadline h, changeover h) for every run, in the harness's order."""
        from .harness_windows import WINDOWS
        if self.window_major:
            return [(env, w[0], r, d) for env in self.envs for w in WINDOWS[env] for r in self.deadlines
                    for d in self.overheads]
        return [(env, w[0], r, d) for env in self.envs for r in self.deadlines for d in self.overheads
                for w in WINDOWS[env]]


def profile(name):
    """adrs-leaderboard | adrs-openevolve | gepa-test | frontier-cs:<high|low|mixed>_<tight|loose>_<small|large>."""
    if name == "adrs-leaderboard":
        return Profile(name, ["us-west-2a_k80_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2a_v100_1",
                              "us-west-2a_v100_8", "us-west-2b_v100_1"], [52.0, 70.0], [0.02, 0.05, 0.10], "F1",
                       entry="leaderboard")
    openevolve_envs = ["us-west-2a_k80_1", "us-west-2a_v100_1", "us-west-2b_k80_1", "us-west-2b_v100_1"]
    if name == "adrs-openevolve":
        return Profile(name, openevolve_envs, [52.0, 70.0, 92.0], [0.02, 0.2, 0.4], "F2")
    if name == "gepa-test":  # GEPA's utils/dataset.py: its _TEST_ENVS order, each env's windows, then the configs
        return Profile(name, ["us-west-2a_k80_1", "us-west-2b_k80_1", "us-west-2a_v100_1", "us-west-2b_v100_1"],
                       [52.0, 70.0, 92.0], [0.02, 0.2, 0.4], "GEPA", entry="gepa", window_major=True)
    if name.startswith("frontier-cs-multi:"):
        from .harness_multi import multi_profile
        return multi_profile(name)
    if name.startswith("frontier-cs:"):
        parts = name.split(":", 1)[1].split("_")
        if (len(parts) == 3 and parts[0] in FRONTIER_AVAILABILITY and parts[1] in FRONTIER_DEADLINES
                and parts[2] in FRONTIER_OVERHEADS):
            return Profile(name, FRONTIER_AVAILABILITY[parts[0]], [FRONTIER_DEADLINES[parts[1]]],
                           [FRONTIER_OVERHEADS[parts[2]]], "F1", entry="frontier")
    raise ValueError(f"unknown harness {name!r}; expected {HARNESS_NAMES}")


# Every single-region grid (what `--policy` scores): the three ADRS/GEPA grids and Frontier-CS's twelve variants.
SINGLE_REGION_HARNESSES = ("adrs-leaderboard", "adrs-openevolve", "gepa-test") + tuple(
    f"frontier-cs:{a}_{d}_{o}" for a in ("high", "low", "mixed") for d in ("tight", "loose") for o in ("small", "large"))

HARNESS_NAMES = ("adrs-leaderboard | adrs-openevolve | gepa-test | frontier-cs:<high|low|mixed>_<tight|loose>_"
                 "<small|large> | frontier-cs-multi:<high|low>_<tight|loose>_<small|large>")


def window_ids(files=300, keep=30):
    """The window ids a harness keeps: sorted(glob(...)) sorts the file names as strings (0, 1, 10, 100, 101, ...),
    then the entries at indices round(j (files - 1) / (keep - 1)), j = 0..keep-1."""
    names = sorted(f"{i}.json" for i in range(files))
    return [int(names[round(j * (files - 1) / (keep - 1))].split(".")[0]) for j in range(keep)]


def score(kind, runs):
    """The harness's score of a list of run results (run_window's dicts)."""
    failed = sum(not r["ok"] for r in runs)
    costs = [r["cost"] for r in runs if r["ok"]]
    out = {"runs": len(runs), "failed": failed, "mean_cost": sum(costs) / len(costs) if costs else None}
    if kind == "F1":
        if failed or not costs:
            out.update(score=0, unbounded=None)  # any failed run scores the whole file 0
        else:
            value = (F1_ON_DEMAND - out["mean_cost"]) / (F1_ON_DEMAND - F1_SPOT)
            out.update(score=round(100 * min(1.0, max(0.0, value))), unbounded=100 * value)
    elif kind == "F2":
        if failed or not costs:
            out.update(score=FAILED_SAMPLE, combined=FAILED_SAMPLE)
        else:
            mean = out["mean_cost"]
            std = (sum((c - mean) ** 2 for c in costs) / len(costs)) ** 0.5
            out.update(score=-mean, combined=-mean - 0.25 * std)
    elif kind == "F3":
        from .harness_multi import f3_score
        out.update(f3_score(runs))
    elif kind == "GEPA":
        samples = [-r["cost"] if r["ok"] else FAILED_SAMPLE for r in runs]
        out.update(score=sum(samples) / len(samples))
    return out


_worker_file = None


_worker_timeline = _worker_counterfactual = False


_worker_time_limit = 300.0


def _init_worker(path, name, entry, memory_mb, timeline=False, counterfactual=False, spec_dir=None,
                 time_limit_s=300.0):
    """A worker that runs untrusted strategy code: no files written (RLIMIT_FSIZE 0; Frontier-CS's spec files
    were written before), no core dumps, an address-space limit, and a time limit per run (RunTimeLimit)."""
    import resource
    import signal
    global _worker_file, _worker_timeline, _worker_counterfactual, _worker_time_limit
    _worker_timeline, _worker_counterfactual, _worker_time_limit = timeline, counterfactual, time_limit_s
    _worker_file = StrategyFile(path, name, entry)  # (imported before the limits: Python may write bytecode)
    _worker_file.spec_dir = spec_dir
    if memory_mb:
        size = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write then fails with an error the run reports

    def over_time(signum, frame):
        raise RunTimeLimit(f"the run took more than {_worker_time_limit:g} s")
    signal.signal(signal.SIGALRM, over_time)


def _run_one(task):
    if _worker_file.entry == "frontier-multi":
        from . import harness_multi
        import signal
        signal.setitimer(signal.ITIMER_REAL, _worker_time_limit)
        try:
            return harness_multi.run_one(task, _worker_file, _worker_timeline, _worker_counterfactual)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    from .harness_windows import RECORDINGS, WINDOWS, GAP_SECONDS
    env, window, deadline, overhead = task
    _, start, end = next(w for w in WINDOWS[env] if w[0] == window)
    available = [c == "1" for c in RECORDINGS[env][start:end]]
    import signal
    signal.setitimer(signal.ITIMER_REAL, _worker_time_limit)
    try:
        spec = trace = None
        if _worker_file.entry == "frontier" and _worker_file.spec_dir is not None:
            spec = spec_file(_worker_file.spec_dir, env, window, deadline, 48.0, overhead)
        if _worker_file.entry in ("adrs", "gepa") and _worker_file.spec_dir is not None:
            trace = os.path.abspath(window_file(_worker_file.spec_dir, env, window))  # (written before the workers)
        result = run_window(_worker_file, available, GAP_SECONDS, deadline, overhead, timeline=_worker_timeline,
                            spec_path=spec, trace_file=trace)
        if _worker_counterfactual and result["ok"]:
            signal.setitimer(signal.ITIMER_REAL, _worker_time_limit)
            without = run_window(_worker_file, available, GAP_SECONDS, deadline, overhead, override=False,
                                 spec_path=spec, trace_file=trace)
            result["met_without_override"] = without["ok"] and without["deadline_met"]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result.update(env=env, window=window, deadline_hours=deadline, overhead_hours=overhead)
    return result


def optimum_costs(tasks):
    """The exact offline optimum of each run's window and job (spotsim's Can't Be Late mode, --regret), by
    (env, window, deadline, changeover)."""
    return {task: row["optimum_cost"] for task, row in grid_rows(tasks, "on-demand", regret=True).items()}


def grid_rows(tasks, policy, regret=False):
    """Each run (env, window, deadline, changeover) of `tasks` as `policy` (a built-in policy's NAME[:key=value,...]
    or a Python policy object, docs/plugins.md) runs it in spotsim's Can't Be Late mode on the window of the env's
    recording at the harnesses' prices: {task: {"cost", "completion_hours", "deadline_met"} and, with `regret`,
    "optimum_cost"}; one engine call per (env, deadline, changeover)."""
    import tempfile
    from .harness_windows import RECORDINGS, WINDOWS, GAP_SECONDS
    from .score import run_windows
    out = {}
    groups = {}
    for env, window, deadline, overhead in tasks:
        groups.setdefault((env, deadline, overhead), []).append(window)
    with tempfile.TemporaryDirectory() as scratch:
        traces = {}
        for (env, deadline, overhead), windows in groups.items():
            if env not in traces:
                traces[env] = _write_recording(env, RECORDINGS[env], GAP_SECONDS, scratch)
            starts = {w: s * GAP_SECONDS for w, s, _ in WINDOWS[env]}
            columns = run_windows(traces[env], [float(starts[w]) for w in windows], policy, deadline,
                                  restart_overhead_hours=overhead, regret=regret)
            for i, w in enumerate(windows):
                row = {"cost": float(columns["cost_total"][i]), "completion_hours": float(columns["completion_hours"][i]),
                       "deadline_met": bool(columns["deadline_met"][i])}
                if regret:
                    row["optimum_cost"] = float(columns["optimum_cost"][i])
                out[(env, w, deadline, overhead)] = row
    return out


def _write_recording(env, bits, gap_seconds, folder):
    """An env's recording as a spotsim trace (one zone, the harnesses' prices), for the optimum."""
    from . import _spotsim
    times, counts = [], []
    for t, bit in enumerate(bits):
        if not counts or counts[-1] != float(bit == "1"):
            times.append(float(t * gap_seconds))
            counts.append(float(bit == "1"))
    document = {"format": "spotsim-trace", "version": 1, "name": env, "tick_s": float(gap_seconds),
                "span_s": float(len(bits) * gap_seconds), "billing": {"increment_s": 1.0, "minimum_s": 60.0},
                "zones": [{"name": env, "gpus_per_instance": 1, "on_demand_price_per_hour": ON_DEMAND_PRICE,
                           "spot": {"price_per_hour": PRICES[ClusterType.SPOT],
                                    "availability": {"times_s": times, "counts": counts}}}]}
    path = os.path.join(folder, f"{env}.json")
    _spotsim.write_trace(document, path)
    return path


def write_run_files(spec_dir, prof):
    """The files the Frontier-CS profiles hand their runs (each run's window file and a spec naming it), and the
    window files the ADRS/OpenEvolve and GEPA runs name with --trace-file, written before any worker runs: the workers
    run strategy code and write nothing."""
    if prof.entry == "frontier-multi":
        from . import harness_multi
        harness_multi._worker_specs = harness_multi.write_run_files(spec_dir, prof)
    if prof.entry not in ("frontier", "adrs", "gepa"):
        return
    from .harness_windows import RECORDINGS, WINDOWS, GAP_SECONDS
    for env, window, deadline, overhead in prof.runs():
        trace = window_file(spec_dir, env, window)  # (adrs, gepa: the runs' --trace-file)
        if not os.path.exists(trace):
            _, start, end = next(w for w in WINDOWS[env] if w[0] == window)
            write_window(trace, [c == "1" for c in RECORDINGS[env][start:end]], GAP_SECONDS)
        if prof.entry != "frontier":
            continue
        with open(spec_file(spec_dir, env, window, deadline, 48.0, overhead), "w") as f:
            json.dump({"deadline": deadline, "duration": 48.0, "overhead": overhead,
                       "trace_file": os.path.abspath(trace)}, f)


def evaluate(path, harness, *, name=None, jobs=None, memory_mb=4096, regret=False, timeline=False,
             override_saved=False, time_limit_s=300.0):
    """Every run of the harness's grid (in worker processes: a strategy holds the GIL) and its score; with
    `regret`, each run's window's exact offline optimum and the run's regret to it; with `timeline`, each run's
    held/spot strings (run_window); with `override_saved`, each run once more without the override, and the count
    of deadlines met with it that would have been missed (or the run failed) without it."""
    import multiprocessing
    prof = profile(harness)
    multi = prof.entry == "frontier-multi"
    if multi and regret:
        raise ValueError("--regret is for the single-region harnesses (the multi-region harness bills every tick at "
                         "the final region's prices: no offline optimum prices runs that way)")
    checked = StrategyFile(path, name, prof.entry)  # a missing file or an unknown --name fails here, once
    if multi:
        from . import harness_multi
        try:
            harness_multi.validate(checked)
        except (AttributeError, TypeError) as error:  # the harness refuses the file before any run: score 0
            return {"strategy": str(path), "harness": harness, "score": 0, "error": str(error)}, []
    tasks = prof.runs()
    jobs = jobs or os.cpu_count() or 1
    import tempfile
    context = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as spec_dir:
        write_run_files(spec_dir, prof)
        initargs = (str(path), name, prof.entry, memory_mb, timeline, override_saved, spec_dir, time_limit_s)
        with context.Pool(jobs, initializer=_init_worker, initargs=initargs) as pool:
            runs = pool.map(_run_one, tasks, chunksize=max(1, len(tasks) // (4 * jobs)))
    if regret:
        optimum = optimum_costs(tasks)
        for task, run in zip(tasks, runs):
            run["optimum_cost"] = optimum[task]
            if run["ok"]:
                run["regret"] = run["cost"] - optimum[task]
    summary = {"strategy": str(path), "harness": harness, **score(prof.score, runs),
               "deadline_misses": sum(r["ok"] and not r["deadline_met"] for r in runs),
               "override_runs": sum(r["ok"] and r["overrides"] > 0 for r in runs)}
    if override_saved:
        summary["deadlines_saved_by_override"] = sum(
            r["ok"] and r["deadline_met"] and not r["met_without_override"] for r in runs)
    if regret:
        regrets = [r["regret"] for r in runs if "regret" in r]
        summary["mean_optimum_cost"] = sum(r["optimum_cost"] for r in runs) / len(runs)
        summary["mean_regret"] = sum(regrets) / len(regrets) if regrets else None
    return summary, runs


def evaluate_policy(policy, harness, *, regret=False):
    """A built-in spotsim policy (`NAME[:key=value,...]`, `spotsim simulate --list-policies`), or a Python policy
    object (`decide(observation)`, docs/plugins.md), on every run of a single-region harness's grid, scored as that
    harness scores: each run is spotsim's Can't Be Late mode on the run's window of the env's recording at the
    harnesses' prices (docs/validation.md#harness-grids), in the harness's order. The same summary and runs as
    evaluate() gives a strategy file ("policy" naming it instead of "strategy"; nothing overrides a spotsim policy,
    so no "overrides"); with `regret`, each run's window's exact optimum."""
    prof = profile(harness)
    if prof.entry == "frontier-multi":
        raise ValueError(f"--policy: {harness} switches regions instantly and free of charge and bills every tick at "
                         "the final region's prices, which spotsim's built-in multi-region policies (moves with a "
                         "transfer and egress) are not written for; expected a single-region harness, or a strategy "
                         "file for this one")
    tasks = prof.runs()
    rows = grid_rows(tasks, policy, regret)
    runs = []
    for env, window, deadline, overhead in tasks:
        run = {"ok": True, **rows[(env, window, deadline, overhead)], "env": env, "window": window,
               "deadline_hours": deadline, "overhead_hours": overhead}
        if regret:
            run["regret"] = run["cost"] - run["optimum_cost"]
        runs.append(run)
    from .score import policy_name
    summary = {"policy": policy_name(policy), "harness": harness,
               **score(prof.score, runs),
               "deadline_misses": sum(not r["deadline_met"] for r in runs)}
    if regret:
        summary["mean_optimum_cost"] = sum(r["optimum_cost"] for r in runs) / len(runs)
        summary["mean_regret"] = sum(r["regret"] for r in runs) / len(runs)
    return summary, runs


def main(argv=None):
    import sys
    p = argparse.ArgumentParser(prog=os.environ.get("SPOTSIM_HARNESS_PROG", "python3 -m spotsim.harness"),
                                description="Score a sky_spot strategy file, or a built-in spotsim policy, as a public "
                                            "harness does (docs/plugins.md#harness-profiles).")
    p.add_argument("strategy", nargs="?", help="a sky_spot strategy file")
    p.add_argument("--policy", help="a built-in policy instead of a file, NAME[:key=value,...] (single-region harnesses)")
    p.add_argument("--plugin", action="append", default=[],
                   help="a compiled policy plugin (.so) whose policies --policy may name (repeatable)")
    p.add_argument("--harness", required=True, help=HARNESS_NAMES)
    p.add_argument("--name", help="the strategy's NAME when the file defines several")
    p.add_argument("--jobs", type=int, help="worker processes [all cores]")
    p.add_argument("--runs-out", help="write every run (env, window, deadline, changeover, cost, ...) as JSON lines")
    p.add_argument("--regret", action="store_true", help="each window's exact offline optimum and the regret to it")
    p.add_argument("--timeline", action="store_true", help="each run's held and spot strings in --runs-out")
    p.add_argument("--run-time-limit", type=float, default=300.0,
                   help="seconds a run may take before it fails (Frontier-CS's limit) [300]")
    p.add_argument("--override-saved", action="store_true",
                   help="run each window once more without the override: how many deadlines it saved")
    a = p.parse_args(argv)
    if (a.strategy is None) == (a.policy is None):
        p.error("expected a strategy file or --policy NAME, not " + ("both" if a.policy else "neither"))
    if a.plugin and a.policy is None:
        p.error("--plugin: only with --policy (a plugin's policies are named there)")
    if a.policy is not None:
        only_files = [f"--{k.replace('_', '-')}" for k, default in (("name", None), ("jobs", None),
                                                                     ("timeline", False), ("override_saved", False),
                                                                     ("run_time_limit", 300.0))
                      if getattr(a, k) != default]
        if only_files:
            p.error(f"{', '.join(only_files)}: only with a strategy file (a built-in policy runs in this process, "
                    "never overridden)")
    stdout = sys.stdout
    try:
        if a.policy is not None:
            from ._spotsim import load_plugin
            for plugin in a.plugin:
                load_plugin(plugin)
            summary, runs = evaluate_policy(a.policy, a.harness, regret=a.regret)
        else:
            summary, runs = evaluate(a.strategy, a.harness, name=a.name, jobs=a.jobs, regret=a.regret,
                                     timeline=a.timeline, override_saved=a.override_saved,
                                     time_limit_s=a.run_time_limit)
    except (ValueError, OSError, SyntaxError, ImportError) as e:
        print(f"{p.prog}: error: {e}", file=sys.stderr)
        sys.exit(2)
    if a.runs_out:
        from ._spotsim import write_output
        try:
            write_output(a.runs_out, "".join(json.dumps(r) + "\n" for r in runs))
        except ValueError as e:
            print(f"{p.prog}: error: {e}", file=sys.stderr)
            sys.exit(2)
    json.dump(summary, stdout, indent=2)
    print(file=stdout)
    if "error" in summary:  # the harness refused the file before any run
        sys.exit(3)


if __name__ == "__main__":
    main()

"""Multi-region strategy files run as Frontier-CS's multi-region harness runs them (docs/plugins.md#multi-region-
strategy-files): `python3 -m spotsim.harness FILE --harness frontier-cs-multi:<high|low>_<tight|loose>_<small|large>`.

The harness (FrontierCS/Frontier-CS @ 4d508c1, research/problems/cant_be_late_multi/common/{__init__,run_evaluator,
sim_worker}.py and its cant-be-late-simulator/sky_spot/env.py) runs a `Solution(MultiRegionStrategy)` on aligned
windows of 2-9 AWS V100 zones: a 24 h job, deadline 36 or 48 h, changeover 0.05 or 0.2 h, 195 s ticks. Facts this
runner reproduces (tests/python/test_harness_multi.py checks it against the harness's own runs):

- The env holds one current region (0 at the start); switch_region(i) moves it at once and free of charge, and
  changes nothing else: the cluster type held stays, and the next tick's spot is the new region's. A restart is
  paid only when the cluster type changes (a spot job moved to a region with spot keeps running).
- The base class's step() is the single-region one (spotsim.sky_spot.strategies.strategy.Strategy.step): the
  strong-guarantee override, a spot request where the current region has no spot becomes NONE, the restart
  overhead on a change of cluster type; asking past the window's end fails the run.
- A run's cost is billed at the end, every tick held at the *final* region's prices: on-demand 3.06 USD/h, spot
  the first price of that region's window (the env's constant cost map): a billing artefact of the harness, kept.
- Each run builds a new Solution(args) (args: deadline_hours, restart_overhead_hours, inter_task_overhead), calls
  solve(spec) with a spec file of deadline, duration, overhead and trace_files (the run's window files, which a
  strategy may read: the future, in the harness as here), then reset() twice, as the harness's simulate() does.
- Score F3: a stage-1 run (us-east-1a + us-east-1c, window 0) must succeed; then per scenario the mean cost of its
  runs in order up to the first failed one (a failed run ends its scenario; a scenario without a success is left
  out); the score is round(100 clip((73.44 - avg) / (73.44 - 23.3544), 0, 1), 2) with avg the mean of the scenario
  means; -1e9 when stage 1 or every scenario fails. A file whose Solution class is missing, not a
  MultiRegionStrategy, or without solve/_step is refused before any run (score 0, an error).
"""
import functools
import json
import os

from .harness import HarnessEnv, RunTimeLimit, drive
from .sky_spot.strategies.multi_strategy import MultiRegionStrategy
from .sky_spot.utils import ClusterType

GAP_SECONDS = 195
DURATION_HOURS = 24.0
ON_DEMAND_PRICE = 3.06
F3_ON_DEMAND = 3.06 * 24
F3_SPOT = 0.9731 * 24
WORST_SCORE = -1e9
STAGE_1 = ("stage_1_quick_check", ["us-east-1a", "us-east-1c"], 1)
# (scenario, zones in region order, windows 0..n-1): research/problems/cant_be_late_multi/common/__init__.py
SCENARIOS = {
    "high": [("2_zones_same_region", ["us-east-1a", "us-east-1c"], 8),
             ("2_regions_east_west", ["us-east-2a", "us-west-2a"], 8),
             ("3_regions_diverse", ["us-east-1a", "us-east-2b", "us-west-2c"], 6),
             ("3_zones_same_region", ["us-east-1a", "us-east-1c", "us-east-1d"], 6),
             ("5_regions_high_diversity", ["us-east-1a", "us-east-1f", "us-west-2a", "us-west-2b", "us-east-2b"], 4),
             ("all_9_regions", ["us-east-2a", "us-west-2c", "us-east-1d", "us-east-2b", "us-west-2a", "us-east-1f",
                                "us-east-1a", "us-west-2b", "us-east-1c"], 2)],
    "low": [("2_zones_west", ["us-west-2a", "us-west-2b"], 8),
            ("3_zones_west", ["us-west-2a", "us-west-2b", "us-west-2c"], 6),
            ("2_regions_west_east2", ["us-west-2a", "us-east-2a"], 8),
            ("5_regions_mixed", ["us-west-2a", "us-west-2b", "us-west-2c", "us-east-2a", "us-east-2b"], 4)],
}
DEADLINES = {"tight": 36.0, "loose": 48.0}
OVERHEADS = {"small": 0.05, "large": 0.20}


def expand(runs):
    return [value for count, value in runs for _ in range(count)]


@functools.lru_cache(maxsize=None)
def window(zone, window_id):
    """A zone's window as the harness's file holds it: {"metadata", "data" (1 = no spot), "prices"}; expanded once
    per process (every run of a scenario reads the same windows; nothing writes into them)."""
    from .harness_multi_windows import WINDOWS
    w = WINDOWS[(zone, window_id)]
    return {"metadata": w["metadata"], "data": expand(w["data"]), "prices": expand(w["prices"])}


class MultiHarnessEnv(HarnessEnv):
    """Aligned windows of several zones as the harness's multi-trace env serves them. Each zone keeps its own tick,
    brought to the env's tick only where the harness does it (asking a zone for spot or for all zones' prices), so
    get_price() after a switch reads the new zone's price at the tick it was last asked at, as there. Observing,
    stepping and the history are the single-zone env's, on the current region's spot."""

    def __init__(self, windows, gap_seconds, override_enabled=True):
        self._unavailable = [w["data"] for w in windows]
        self._prices = [w["prices"] for w in windows]
        self.num_regions = len(windows)
        self.max_ticks = min(len(d) for d in self._unavailable)
        self.held_regions = []  # the region of each tick stepped (for --timeline)
        super().__init__([], gap_seconds, past_end_fails=True, override_enabled=override_enabled)

    def reset(self):
        super().reset()
        self.current_region = 0
        self._zone_ticks = [0] * self.num_regions

    @property
    def cluster_type_histroy(self):  # (the harness's own spelling, which a strategy may read)
        return self.cluster_type_history

    def _check(self, region_idx):
        if not 0 <= region_idx < self.num_regions:
            raise AssertionError(f"Region index {region_idx} out of range")

    def _zone_spot(self, region_idx):
        tick = self._zone_ticks[region_idx]
        data = self._unavailable[region_idx]
        if tick >= len(data):
            raise ValueError(f"Timestamp {tick} out of range {len(data)}")
        return not data[tick]

    def spot_available_in_region(self, region_idx):
        self._check(region_idx)
        self._zone_ticks[region_idx] = self.tick
        return self._zone_spot(region_idx)

    def spot_available(self):
        return self.spot_available_in_region(self.current_region)

    def get_all_regions_spot_available(self):
        return [self.spot_available_in_region(i) for i in range(self.num_regions)]

    def _zone_price(self, region_idx):
        return {ClusterType.ON_DEMAND: ON_DEMAND_PRICE,
                ClusterType.SPOT: float(self._prices[region_idx][self._zone_ticks[region_idx]]),
                ClusterType.NONE: 0.0}

    def get_all_regions_spot_prices(self):
        prices = []
        for i in range(self.num_regions):
            self._zone_ticks[i] = self.tick
            prices.append(self._zone_price(i)[ClusterType.SPOT] if self._zone_spot(i) else None)
        return prices

    def get_all_regions_ondemand_prices(self):
        return [ON_DEMAND_PRICE] * self.num_regions

    def get_price(self):
        return self._zone_price(self.current_region)

    def get_constant_cost_map(self):
        return {ClusterType.ON_DEMAND: ON_DEMAND_PRICE, ClusterType.SPOT: float(self._prices[self.current_region][0]),
                ClusterType.NONE: 0.0}

    def switch_region(self, region_idx):
        self._check(region_idx)
        self.current_region = region_idx
        return True

    def get_current_region(self):
        return self.current_region

    def get_num_regions(self):
        return self.num_regions

    def step(self, request):
        region = self.current_region
        super().step(request)
        self.held_regions.append(region)

    @property
    def accumulated_cost(self):
        prices = self.get_constant_cost_map()
        return sum(prices[c] * self.gap_seconds / 3600 for c in self.cluster_type_history)


def run_multi_window(strategy_file, windows, deadline_hours, overhead_hours, spec_path, timeline=False,
                     override=True):
    """One run as the harness makes it (windows: one per zone, in the scenario's region order). Returns the keys
    of spotsim.harness.run_window; with `timeline`, "held" (a letter per tick) and "region" (the current region's
    index during each tick)."""
    try:
        strategy = strategy_file.build(deadline_hours, DURATION_HOURS, overhead_hours, spec_path=spec_path)
    except (Exception, RunTimeLimit) as error:  # noqa: BLE001 -- a strategy may raise anything: the run fails
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}
    env = MultiHarnessEnv(windows, GAP_SECONDS, override_enabled=override)
    out = drive(strategy, env, DURATION_HOURS, deadline_hours, env.max_ticks, timeline)
    if timeline and out["ok"]:
        out["region"] = "".join(str(r) for r in env.held_regions[:len(out["held"])])
    return out


class MultiProfile:
    """A Frontier-CS multi-region variant: its stage-1 run, its scenarios' runs, a deadline and a changeover."""

    score = "F3"
    entry = "frontier-multi"

    def __init__(self, name, availability, deadline_hours, overhead_hours):
        self.name, self.deadline, self.overhead = name, deadline_hours, overhead_hours
        self.scenarios = SCENARIOS[availability]
        self.deadlines, self.overheads = [deadline_hours], [overhead_hours]

    def runs(self):
        """(scenario, zones, window id, deadline h, changeover h) for every run, in the harness's order."""
        return [(name, tuple(zones), w, self.deadline, self.overhead) for name, zones, count in
                [STAGE_1] + self.scenarios for w in range(count)]


def multi_profile(name):
    parts = name.split(":", 1)[1].split("_")
    if len(parts) == 3 and parts[0] in SCENARIOS and parts[1] in DEADLINES and parts[2] in OVERHEADS:
        return MultiProfile(name, parts[0], DEADLINES[parts[1]], OVERHEADS[parts[2]])
    raise ValueError(f"unknown harness {name!r}; expected frontier-cs-multi:<high|low>_<tight|loose>_<small|large>")


def validate(strategy_file):
    """The harness's check before any run: a Solution class, a MultiRegionStrategy, with solve and _step."""
    cls = strategy_file.module_solution
    if cls is None:
        raise AttributeError("solution.py must define a 'Solution' class")
    if not isinstance(cls, type) or not issubclass(cls, MultiRegionStrategy):
        raise TypeError("Solution must inherit from sky_spot.strategies.multi_strategy.MultiRegionStrategy")
    for method in ("solve", "_step"):
        if not callable(getattr(cls, method, None)):
            raise AttributeError(f"Solution must implement {method}")


def f3_score(runs):
    """The harness's score from every run in profile order (the stage-1 run first)."""
    stage_1, rest = runs[0], runs[1:]
    out = {"runs": len(runs), "failed": sum(not r["ok"] for r in runs)}
    if not stage_1["ok"]:
        return {**out, "score": 0, "unbounded": WORST_SCORE, "mean_cost": None, "runs_counted": 0}
    means, counted = [], 0
    by_scenario = {}
    for r in rest:
        by_scenario.setdefault(r["scenario"], []).append(r)
    for scenario_runs in by_scenario.values():
        costs = []
        for r in scenario_runs:
            if not r["ok"]:
                break
            costs.append(r["cost"])
        if costs:
            means.append(sum(costs) / len(costs))
            counted += len(costs)
    if not means:
        return {**out, "score": 0, "unbounded": WORST_SCORE, "mean_cost": None, "runs_counted": 0}
    avg = sum(means) / len(means)
    value = round(max(0.0, min(1.0, (F3_ON_DEMAND - avg) / (F3_ON_DEMAND - F3_SPOT))) * 100, 2)
    return {**out, "score": value, "unbounded": value, "mean_cost": avg, "runs_counted": counted}


def write_run_files(folder, prof):
    """The window files and per-run spec files a strategy may read (written before any worker runs)."""
    paths = {}
    for name, zones, window_id, deadline, overhead in prof.runs():
        files = []
        for zone in zones:
            path = os.path.join(folder, f"{zone}_v100_1", f"{window_id}.json")
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    json.dump(window(zone, window_id), f)
            files.append(path)
        spec = os.path.join(folder, f"spec_{name}_{window_id}.json")
        with open(spec, "w") as f:
            json.dump({"deadline": deadline, "duration": DURATION_HOURS, "overhead": overhead, "trace_files": files},
                      f)
        paths[(name, window_id)] = spec
    return paths


_worker_specs = {}


def run_one(task, strategy_file, timeline, counterfactual):
    """A worker's run of one task of MultiProfile.runs() (spotsim.harness's pool calls it)."""
    name, zones, window_id, deadline, overhead = task
    windows = [window(zone, window_id) for zone in zones]
    spec = _worker_specs[(name, window_id)]
    result = run_multi_window(strategy_file, windows, deadline, overhead, spec, timeline=timeline)
    if counterfactual and result["ok"]:
        without = run_multi_window(strategy_file, windows, deadline, overhead, spec, override=False)
        result["met_without_override"] = without["ok"] and without["deadline_met"]
    result.update(scenario=name, zones=list(zones), window=window_id, deadline_hours=deadline,
                  overhead_hours=overhead)
    return result

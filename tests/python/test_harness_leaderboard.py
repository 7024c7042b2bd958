"""Strategy files run as the ADRS-Leaderboard's Can't Be Late harness runs them (spotsim.harness, profile
adrs-leaderboard: StrategyFile(path) with that profile's entry), checked against that harness itself: tests/python/
data/leaderboard_harness_runs.jsonl holds what its own code (UCB-ADRS/ADRS-Leaderboard @ f856497,
problems/cant_be_late/resources/evaluator/{evaluator_real30,sim_worker}.py and the simulator package beside them:
the module's first Strategy subclass built by _from_args per run, in process) gave for each test strategy in
harness_strategies/ and harness_strategies_leaderboard/ (the latter exercising rules of the Leaderboard's simulator the
others do not: a class without NAME, a job still running when the recording ends, the read-only `config` property) on
2 envs x 3 windows x deadlines 52, 70 h x changeovers 0.02, 0.1 h, recorded with
tools/harness/record_leaderboard_runs.py."""
import json

import pytest

from conftest import REPO, harness_disagreements, recorded_windows, run_recorded
from spotsim.harness import StrategyFile, profile

FOLDERS = [REPO / "tests" / "python" / "harness_strategies",
           REPO / "tests" / "python" / "harness_strategies_leaderboard"]
RECORDED = [json.loads(line) for line in open(REPO / "tests" / "python" / "data" / "leaderboard_harness_runs.jsonl")]
# What a failed run's error says, in the harness's text and in spotsim's (every substring in both).
EXPECTED_ERRORS = {"raises_midway": ("strategy gave up at tick 100",), "runs_past_end": ("out of range 554",),
                   "sets_config": ("AttributeError", "config")}
# A run takes a few ms of CPU; one that never ends (ADRS/OpenEvolve's base class credits no work past the recording)
# fails at this limit instead of hanging the test.
RUN_CPU_LIMIT_S = 0.3


def strategy_path(stem):
    paths = [folder / f"{stem}.py" for folder in FOLDERS if (folder / f"{stem}.py").is_file()]
    assert len(paths) == 1, (stem, paths)
    return paths[0]


@pytest.fixture(scope="module")
def windows(shared):
    return recorded_windows(shared, RECORDED)


@pytest.fixture(scope="module")
def ours(windows):
    """spotsim's result for every recorded run, in the record's order (the order the harness submits its runs: one
    strategy object per run, the file imported once, as in one of the harness's workers)."""
    entry = profile("adrs-leaderboard").entry
    files = {}
    return run_recorded(RECORDED, windows, lambda name: files.setdefault(
        name, StrategyFile(strategy_path(name), entry=entry)), RUN_CPU_LIMIT_S)


def test_the_record_covers_every_strategy_on_the_whole_grid():
    stems = {p.stem for folder in FOLDERS for p in folder.glob("*.py")}
    assert len(RECORDED) == 24 * len(stems) == 336
    assert {r["strategy"] for r in RECORDED} == stems
    for strategy in stems:
        runs = [r for r in RECORDED if r["strategy"] == strategy]
        assert len({(r["pair"], r["window"], r["deadline_hours"], r["overhead_hours"]) for r in runs}) == 24
    # The harness's verdicts: it runs the files ADRS/OpenEvolve refuses (name_taken, no_from_args, no_name); one
    # file raises, one cannot be built, one runs past the recording where spot is scarce (us-west-2b_k80_1).
    failed = {s: sum(not r["ok"] for r in RECORDED if r["strategy"] == s) for s in stems}
    assert failed == {s: 0 for s in stems} | {"raises_midway": 24, "sets_config": 24, "runs_past_end": 12}
    assert all(r["pair"] == "us-west-2b_k80_1" for r in RECORDED if r["strategy"] == "runs_past_end" and not r["ok"])
    for run in RECORDED:
        if not run["ok"]:
            assert all(s in run["error"] for s in EXPECTED_ERRORS[run["strategy"]]), run


def test_the_leaderboard_runs_the_module_s_first_class_in_definition_order():
    """first_by_name.py defines Beta (spot, else wait) before Alpha (on-demand only); no_from_args.py defines
    ZzzBuilds (on-demand only, with _from_args) first: the harness took Beta's and ZzzBuilds' costs."""
    by = {(r["strategy"], r["pair"], r["window"], r["deadline_hours"], r["overhead_hours"]): r for r in RECORDED}
    for (strategy, *grid), run in by.items():
        if strategy == "first_by_name":
            assert run["cost"] == pytest.approx(by[("leans_on_override", *grid)]["cost"], abs=1e-9)
        if strategy == "no_from_args":  # on-demand throughout: 48 h of work and one restart, in whole ticks
            ticks = -(-(48 + run["overhead_hours"]) * 6 // 1)
            assert run["cost"] == pytest.approx(3.06 * ticks / 6, abs=1e-6)


def test_every_recorded_run_agrees_with_the_harness(ours):
    """Same verdict as the harness in every run, the same cost (within 1e-6 USD) where it ran, and the same reason
    where it failed."""
    differ = harness_disagreements(RECORDED, ours, EXPECTED_ERRORS)
    assert not differ, f"{len(differ)} of {len(RECORDED)} runs differ from the ADRS-Leaderboard:\n" + "\n".join(
        map(str, differ))

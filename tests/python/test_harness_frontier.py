"""Strategy files run as Frontier-CS's single-region Can't Be Late harness runs them (spotsim.harness,
StrategyFile(path, entry="frontier")), checked against that harness itself: tests/python/data/
frontier_harness_runs.jsonl holds what its own code (FrontierCS/Frontier-CS @ 4d508c1, research/problems/
cant_be_late/common/: run_evaluator's checks on the file, then sim_worker.run_single_simulation per run) gave for each
test strategy in harness_strategies_frontier/ (each exercising one of its rules: the strong-guarantee override, a spot
request without spot, a new Solution per run, what solve() sees and sets, a strategy that raises, a job still running
when the recording ends, a Solution that is not a Strategy, the env and the calls of reset()) on 2 envs x 3 windows x
deadlines 52, 70 h x changeovers 0.05, 0.2 h, recorded with tools/harness/record_frontier_runs.py."""
import json

import pytest

from conftest import REPO, harness_disagreements, recorded_windows
from spotsim.harness import StrategyFile, run_window

STRATEGIES = REPO / "tests" / "python" / "harness_strategies_frontier"
RECORDED = [json.loads(line) for line in open(REPO / "tests" / "python" / "data" / "frontier_harness_runs.jsonl")]
# What a failed run's error says, in the harness's text and in spotsim's.
EXPECTED_ERRORS = {"raises_midway": "strategy gave up at tick 100", "waits_past_end": "out of range 554",
                   "solution_not_strategy": "Solution"}


@pytest.fixture(scope="module")
def windows(shared):
    return recorded_windows(shared, RECORDED)


@pytest.fixture(scope="module")
def ours(windows):
    """spotsim's result for every recorded run, in the record's order."""
    files = {}
    out = []
    for run in RECORDED:
        strategy = files.setdefault(run["strategy"],
                                    StrategyFile(STRATEGIES / f"{run['strategy']}.py", entry="frontier"))
        out.append(run_window(strategy, windows[(run["pair"], run["window"])], 600, run["deadline_hours"],
                              run["overhead_hours"]))
    return out


def test_the_record_covers_every_strategy_on_the_whole_grid():
    assert len(RECORDED) == 192
    assert {r["strategy"] for r in RECORDED} == {p.stem for p in STRATEGIES.glob("*.py")}
    for strategy in {r["strategy"] for r in RECORDED}:
        runs = [r for r in RECORDED if r["strategy"] == strategy]
        assert len({(r["pair"], r["window"], r["deadline_hours"], r["overhead_hours"]) for r in runs}) == 24
    # The harness's verdicts the files were written for: two files fail every run, one fails where spot runs short.
    failed = {s: sum(not r["ok"] for r in RECORDED if r["strategy"] == s) for s in {r["strategy"] for r in RECORDED}}
    assert failed == {"asks_spot_blindly": 0, "keeps_state": 0, "leans_on_override": 0, "raises_midway": 24,
                      "reads_env_in_reset": 0, "reads_spec": 0, "solution_not_strategy": 24, "waits_past_end": 12}
    for run in RECORDED:
        if not run["ok"]:
            assert EXPECTED_ERRORS[run["strategy"]] in run["error"], run


def test_every_recorded_run_agrees_with_the_harness(ours):
    """Same verdict as the harness in every run, the same cost (within 1e-6 USD) where it ran, and the same reason
    where it failed. (A file the harness's checks reject fails every run there, before any simulation.)"""
    differ = harness_disagreements(RECORDED, ours, EXPECTED_ERRORS)
    assert not differ, f"{len(differ)} of {len(RECORDED)} runs differ from Frontier-CS:\n" + "\n".join(
        map(str, differ))


def test_the_rejected_files_strategy_costs_what_the_harness_worker_gave(windows, tmp_path):
    """The harness rejects solution_not_strategy.py before any run, but its sim_worker alone would run the module's
    first Strategy subclass (the record keeps what it gave as worker_ok/worker_cost): made a proper Solution, that
    class costs the same in spotsim, run for run."""
    text = (STRATEGIES / "solution_not_strategy.py").read_text()
    fixed = tmp_path / "solution.py"
    fixed.write_text(text.replace("class Solution:", "class Thresholds:").replace("Solution.ON_DEMAND_BELOW",
                                                                                 "Thresholds.ON_DEMAND_BELOW")
                     .replace("class SpotThenOnDemand(Strategy):", "class Solution(Strategy):"))
    strategy = StrategyFile(fixed, entry="frontier")
    rejected = [r for r in RECORDED if r.get("failed_at") == "validation"]
    assert len(rejected) == 24 and all(r["worker_ok"] for r in rejected)
    for run in rejected:
        mine = run_window(strategy, windows[(run["pair"], run["window"])], 600, run["deadline_hours"],
                          run["overhead_hours"])
        assert mine["ok"] and abs(mine["cost"] - run["worker_cost"]) <= 1e-6, (run, mine)

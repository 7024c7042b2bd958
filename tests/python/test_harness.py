"""Strategy files run as the public harnesses run them (spotsim.harness, docs/plugins.md#harness-profiles), checked
against the ADRS/OpenEvolve harness itself: tests/python/data/adrs_harness_runs.jsonl holds what the harness printed
for each test strategy in harness_strategies/ (each exercising one of the harness's rules: the strong-guarantee
override, a spot request without spot, a fresh object per run, the env set before reset, one task_done_time entry
per tick, the last cluster type on a preemption tick, the restart overhead a strategy reads and writes, a strategy
that raises) on 2 envs x 3 windows x 2 deadlines x 2 changeovers, recorded with tools/harness/record_adrs_runs.py."""
import csv
import json

import pytest

from conftest import REPO
from spotsim.harness import StrategyFile, run_window
from spotsim.score import run_windows
from spotsim.strategy_files import strategy_policy

STRATEGIES = REPO / "tests" / "python" / "harness_strategies"
EXPECTED_ERRORS = {"raises_midway": "tick 100", "name_taken": "Name strawman already exists",
                   "no_from_args": "NotImplementedError"}
RECORDED = [json.loads(line) for line in open(REPO / "tests" / "python" / "data" / "adrs_harness_runs.jsonl")]


@pytest.fixture(scope="module")
def windows(shared):
    """(pair, window id) -> spot availability per tick, cut from the base recording as the harness's files are."""
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    rows = csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv"))
    bases, out = {}, {}
    for r in rows:
        pair = r["pair"]
        if pair not in {run["pair"] for run in RECORDED}:
            continue
        if pair not in bases:
            bases[pair] = json.load(open(base_dir / f"{pair}.json"))["data"]
        out[(pair, int(r["window"]))] = [x == 1 for x in bases[pair][int(r["start_tick"]):int(r["end_tick"])]]
    return out


def test_every_recorded_run_costs_what_the_harness_printed(windows):
    files = {}
    checked = failures = 0
    for run in RECORDED:
        strategy = files.setdefault(run["strategy"], StrategyFile(STRATEGIES / f"{run['strategy']}.py"))
        ours = run_window(strategy, windows[(run["pair"], run["window"])], 600, run["deadline_hours"],
                          run["overhead_hours"])
        assert ours["ok"] == run["ok"], (run, ours)
        if run["ok"]:
            assert abs(ours["cost"] - run["cost"]) <= 1e-6, (run, ours)
        else:
            failures += 1
            assert EXPECTED_ERRORS[run["strategy"]] in ours["error"], (run, ours)
        checked += 1
    # Every run of the three files the harness cannot run fails, as there.
    assert checked == 264 and failures == 72


def test_the_override_saves_deadlines_a_strategy_would_miss_and_is_counted(windows):
    strategy = StrategyFile(STRATEGIES / "leans_on_override.py")
    runs = [run_window(strategy, w, 600, 52.0, 0.05) for w in windows.values()]
    assert all(r["ok"] for r in runs)
    assert sum(r["overrides"] > 0 for r in runs) >= len(runs) // 2
    # The override lets a job on a running spot instance go on for one more tick, so the harness itself can miss by
    # a tick: once here (window 275 of us-west-2b_k80_1 finishes at 52.17 h), the 59 other windows meet 52 h.
    misses = [r for r in runs if not r["deadline_met"]]
    assert len(misses) == 1 and misses[0]["completion_hours"] == pytest.approx(52 + 1 / 6)


def test_the_engine_stand_in_differs_where_the_harness_rules_matter(shared, cli, tmp_path, windows):
    """The reason for the harness runner: the engine-driven stand-in (strategy_files) has no override, so a strategy
    that leans on it misses deadlines there and costs differ from the harness's."""
    base = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    code, _, err = cli("trace", "convert", base / "us-west-2a_v100_1.json", "--on-demand-price", "3.06",
                       "--spot-price", "0.9731", "-o", tmp_path / "t.json")
    assert code == 0, err
    rows = csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv"))
    starts = [int(r["start_tick"]) * 600 for r in rows
              if r["pair"] == "us-west-2a_v100_1" and int(r["window"]) in (8, 99, 266)]
    stand_in = run_windows(tmp_path / "t.json", starts, strategy_policy(STRATEGIES / "leans_on_override.py"), 52.0,
                           restart_overhead_hours=0.02)
    recorded = [r for r in RECORDED if r["strategy"] == "leans_on_override" and r["pair"] == "us-west-2a_v100_1"
                and r["deadline_hours"] == 52.0 and r["overhead_hours"] == 0.02]
    assert not all(stand_in["deadline_met"])
    recorded.sort(key=lambda r: [8, 99, 266].index(r["window"]))
    assert any(abs(c - r["cost"]) > 0.01 for c, r in zip(stand_in["cost_total"], recorded))


def test_a_run_past_the_recording_with_spot_requested_fails_as_in_the_harness():
    strategy = StrategyFile(STRATEGIES / "leans_on_override.py")
    out = run_window(strategy, [True] * 10 + [False] * 400, 600, 52.0, 0.02)
    assert out["ok"]  # the override takes it to on-demand, which needs no spot
    too_short = run_window(strategy, [True] * 100, 600, 52.0, 0.02)
    assert not too_short["ok"] and "Trace data insufficient" in too_short["error"]
    infeasible = run_window(strategy, [True] * 600, 600, 48.1, 0.2)
    assert not infeasible["ok"] and "Task infeasible" in infeasible["error"]


def test_the_windows_kept_are_the_harnesses():
    """sorted(glob) sorts names as strings; the kept indices are round(j 299 / 29): the ids the README lists."""
    from spotsim.harness import window_ids
    from spotsim.harness_windows import WINDOWS
    ids = [0, 8, 9, 20, 21, 33, 42, 51, 61, 70, 99, 107, 117, 126, 135, 145, 154, 163, 172, 182, 191, 219, 228, 238,
           247, 256, 266, 275, 284, 294]
    assert sorted(window_ids()) == ids  # (kept in string order: 0, 107, 117, ...)
    for env, windows in WINDOWS.items():
        assert [w[0] for w in windows] == ids, env
        assert all(e - s == 554 for _, s, e in windows), env


def test_the_shipped_recordings_are_the_shared_ones(shared):
    from spotsim.harness_windows import RECORDINGS
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    for env, bits in RECORDINGS.items():
        data = json.load(open(base_dir / f"{env}.json"))["data"]
        assert bits == "".join("1" if x == 1 else "0" for x in data), env


def test_profiles_and_scores():
    from spotsim.harness import profile, score
    assert len(profile("adrs-leaderboard").runs()) == 1080
    assert len(profile("adrs-openevolve").runs()) == 1080
    assert len(profile("frontier-cs:mixed_tight_small").runs()) == 240
    assert len(profile("frontier-cs:high_loose_large").runs()) == 120
    with pytest.raises(ValueError, match="unknown harness"):
        profile("frontier-cs:medium_tight_small")
    # F1: pure on-demand costs 147.90 on the harnesses' windows (48.33 billed hours): 0; the anchors are constants.
    on_demand = [{"ok": True, "cost": 147.9}] * 4
    assert score("F1", on_demand)["score"] == 0
    half = (146.88 + 46.7088) / 2
    assert score("F1", [{"ok": True, "cost": half}])["score"] == 50
    assert score("F1", [{"ok": True, "cost": half}, {"ok": False}])["score"] == 0  # one failure: the file scores 0
    f2 = score("F2", [{"ok": True, "cost": 100.0}, {"ok": True, "cost": 110.0}])
    assert f2["score"] == -105.0 and f2["combined"] == pytest.approx(-105.0 - 0.25 * 5.0)
    assert score("F2", [{"ok": False}])["score"] == -100000.0
    assert score("GEPA", [{"ok": True, "cost": 100.0}, {"ok": False}])["score"] == pytest.approx((-100.0 - 100000) / 2)


def test_the_command_scores_a_file_on_a_whole_grid(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "runs.jsonl"
    solution = tmp_path / "solution.py"  # Frontier-CS builds Solution(args) and calls solve(spec)
    solution.write_text((STRATEGIES / "leans_on_override.py").read_text().replace(
        "class LeansOnOverride(Strategy):", "class Solution(Strategy):\n    def solve(self, spec_path):\n        return self\n"))
    done = subprocess.run([sys.executable, "-m", "spotsim.harness", str(solution),
                           "--harness", "frontier-cs:high_tight_small", "--jobs", "2", "--runs-out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["runs"] == 120 and summary["failed"] == 0 and 0 <= summary["score"] <= 100
    runs = [json.loads(line) for line in open(out)]
    assert len(runs) == 120 and {r["env"] for r in runs} == {"us-west-2b_k80_1", "us-west-2b_v100_8",
                                                             "us-west-2a_v100_8", "us-west-2b_v100_1"}
    for without_solve in ("leans_on_override.py", "raises_midway.py"):  # no solve(), or it raises: every run fails
        failed = subprocess.run([sys.executable, "-m", "spotsim.harness", str(STRATEGIES / without_solve),
                                 "--harness", "frontier-cs:high_tight_small", "--jobs", "2"], capture_output=True,
                                text=True)
        assert failed.returncode == 0 and json.loads(failed.stdout)["score"] == 0
    bad = subprocess.run([sys.executable, "-m", "spotsim.harness", str(tmp_path / "missing.py"), "--harness",
                          "adrs-leaderboard"], capture_output=True, text=True)
    assert bad.returncode == 2 and "missing.py" in bad.stderr


def test_the_frontier_entry_builds_solution_with_its_namespace_and_spec(tmp_path):
    """Frontier-CS: Solution(args) with deadline_hours, restart_overhead_hours and inter_task_overhead, then
    solve(spec_path) with the run's figures (and no deadline set yet), a fresh object per run; a file without
    solve() fails its runs; past the recording the run fails instead of seeing no spot."""
    from spotsim.harness import StrategyFile
    path = tmp_path / "solution.py"
    path.write_text("""
import json
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType

class Other(Strategy):
    NAME = "other"
    def _step(self, last_cluster_type, has_spot):
        return ClusterType.NONE

class Solution(Strategy):
    NAME = "solution"
    built = 0
    def solve(self, spec_path):
        Solution.built += 1
        spec = json.load(open(spec_path))
        assert spec["deadline"] == self.args.deadline_hours and spec["duration"] == 48.0
        assert self.args.restart_overhead_hours == [spec["overhead"]] and self.args.inter_task_overhead == [0.0]
        self.patience = Solution.built
        return self
    def _step(self, last_cluster_type, has_spot):
        return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND
""")
    strategy = StrategyFile(path, entry="frontier")
    assert strategy.cls.__name__ == "Solution"
    first = run_window(strategy, [True] * 400, 600, 52.0, 0.05)
    second = run_window(strategy, [True] * 400, 600, 52.0, 0.05)
    assert first["ok"] and second["ok"] and first["cost"] == second["cost"]
    no_solve = tmp_path / "no_solve.py"
    no_solve.write_text(path.read_text().replace("def solve", "def not_solve"))
    failed = run_window(StrategyFile(no_solve, entry="frontier"), [True] * 400, 600, 52.0, 0.05)
    assert not failed["ok"] and "solve" in failed["error"]
    # All spot lost from tick 320 on and the window ends at 330: ADRS's base class sees no spot past the end and
    # goes on on-demand; Frontier-CS's lets the error end the run.
    available = [True] * 320 + [False] * 10
    adrs = run_window(StrategyFile(STRATEGIES / "leans_on_override.py"), available, 600, 52.0, 0.05)
    assert adrs["ok"]
    late = tmp_path / "late.py"
    late.write_text(path.read_text().replace("ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND",
                                              "ClusterType.SPOT if has_spot else ClusterType.NONE"))
    frontier = run_window(StrategyFile(late, entry="frontier"), [True] * 10 + [False] * 320, 600, 52.0, 0.05)
    assert frontier["ok"]  # the override takes it to on-demand before the end: no tick past it is asked


def test_regret_and_timeline_per_run(tmp_path):
    """What no harness gives: each window's exact offline optimum (never above a run's cost) and the run's ticks."""
    from spotsim.harness import evaluate
    summary, runs = evaluate(STRATEGIES / "keys_on_last_type.py", "frontier-cs:low_loose_large", jobs=2, regret=True,
                             timeline=True)
    assert summary["runs"] == 120 and summary["failed"] == 120  # no solve(): Frontier-CS cannot run it
    summary, runs = evaluate(as_solution(STRATEGIES / "keys_on_last_type.py", tmp_path), "frontier-cs:mixed_loose_large",
                             jobs=2, regret=True, timeline=True)
    assert summary["failed"] == 0 and summary["mean_regret"] > 0
    for run in runs:
        assert run["optimum_cost"] <= run["cost"] + 1e-9, run
        assert len(run["held"]) == len(run["spot"]) == run["ticks"] - 1
        assert all(h != "S" or a == "1" for h, a in zip(run["held"], run["spot"]))  # spot held only when there
        billed = sum({"N": 0.0, "S": 3.06 / (3.06 / 0.9731), "O": 3.06}[h] / 6 for h in run["held"])
        assert billed == pytest.approx(run["cost"], abs=1e-6)


def as_solution(path, tmp_path):
    """A test strategy as Frontier-CS wants it: a class named Solution with solve() (its 120-run grids are small)."""
    text = path.read_text()
    name = next(line.split("(")[0].split()[1] for line in text.splitlines() if line.startswith("class "))
    out = tmp_path / f"{path.stem}_solution.py"
    out.write_text(text.replace(f"class {name}(Strategy):",
                                "class Solution(Strategy):\n    def solve(self, spec_path):\n        return self\n", 1))
    return out


def test_the_deadlines_the_override_saved_are_counted(tmp_path):
    from spotsim.harness import evaluate
    summary, runs = evaluate(as_solution(STRATEGIES / "leans_on_override.py", tmp_path), "frontier-cs:low_tight_small",
                             jobs=2, override_saved=True)
    assert summary["failed"] == 0 and summary["deadlines_saved_by_override"] > 60
    assert summary["deadlines_saved_by_override"] == sum(r["deadline_met"] and not r["met_without_override"]
                                                         for r in runs)
    # A strategy that meets its deadlines by itself (on-demand from the start): nothing saved.
    on_demand = tmp_path / "on_demand.py"
    on_demand.write_text((STRATEGIES / "leans_on_override.py").read_text().replace(
        "return ClusterType.SPOT if has_spot else ClusterType.NONE", "return ClusterType.ON_DEMAND"))
    summary, _ = evaluate(as_solution(on_demand, tmp_path), "frontier-cs:low_tight_small", jobs=2,
                          override_saved=True)
    assert summary["deadlines_saved_by_override"] == 0 and summary["deadline_misses"] == 0


def test_a_run_that_loops_or_writes_files_fails_and_the_rest_go_on(tmp_path):
    """The workers run untrusted code: a run past the time limit fails (as the harness's own time limit fails it),
    and a strategy cannot write into files (RLIMIT_FSIZE 0: the spec files a Frontier-CS run reads were written
    before); Python drops the buffered write of a file it closes, so the run itself goes on."""
    from spotsim.harness import evaluate
    looping = tmp_path / "looping.py"
    looping.write_text((STRATEGIES / "leans_on_override.py").read_text().replace(
        "        return ClusterType.SPOT if has_spot else ClusterType.NONE",
        "        while self.env.tick == 40:\n            pass\n        return ClusterType.SPOT if has_spot else ClusterType.NONE"))
    summary, runs = evaluate(as_solution(looping, tmp_path), "frontier-cs:high_tight_small", jobs=2, time_limit_s=0.05)
    assert summary["failed"] == 120 and summary["score"] == 0
    assert all("RunTimeLimit" in r["error"] for r in runs)
    writer = tmp_path / "writer.py"
    target = tmp_path / "left_behind.txt"
    writer.write_text((STRATEGIES / "leans_on_override.py").read_text().replace(
        "    def _step(self, last_cluster_type, has_spot):",
        f"    def _step(self, last_cluster_type, has_spot):\n        open({str(target)!r}, 'a').write('x' * 10)"))
    summary, runs = evaluate(as_solution(writer, tmp_path), "frontier-cs:high_tight_small", jobs=2)
    assert summary["failed"] == 0
    assert not target.exists() or target.stat().st_size == 0

"""`spotsim score --policy NAME`: a built-in policy on a harness's grid, scored as the harness scores it.

The built-in path (spotsim's Can't Be Late mode per run) must agree with the harness path (the strategy file asked
tick by tick as the harness asks it) where the two policies are the same policy, run for run; its runs must be
those of the harness's grid in the harness's order; and each run must be spotsim.score.run_windows's on the same
window (what experiments/harness_grids.py ran before it called this; docs/validation.md#harness-grids).
"""
import json
import pathlib

import pytest

from spotsim.harness import evaluate, evaluate_policy, profile
from spotsim.harness_windows import GAP_SECONDS, WINDOWS

HERE = pathlib.Path(__file__).resolve().parent
ON_DEMAND_FILE = HERE / "harness_strategies_builtin" / "always_on_demand.py"


@pytest.mark.parametrize("harness", ["frontier-cs:high_tight_small", "frontier-cs:low_loose_large"])
def test_the_built_in_on_demand_is_the_on_demand_file_run_for_run(harness):
    by_file, file_runs = evaluate(ON_DEMAND_FILE, harness, jobs=1)
    by_policy, policy_runs = evaluate_policy("on-demand", harness)
    assert len(policy_runs) == len(file_runs) == by_policy["runs"] == len(profile(harness).runs())
    for f, p in zip(file_runs, policy_runs):
        assert (f["env"], f["window"], f["deadline_hours"], f["overhead_hours"]) == \
            (p["env"], p["window"], p["deadline_hours"], p["overhead_hours"])
        assert p["cost"] == pytest.approx(f["cost"], abs=1e-9)
        assert p["deadline_met"] == f["deadline_met"]
    assert by_policy["score"] == by_file["score"]
    assert by_policy["mean_cost"] == pytest.approx(by_file["mean_cost"], abs=1e-9)


class AlwaysOnDemand:
    """A Python policy object (docs/plugins.md): on-demand, always."""
    name = "always-on-demand"

    def decide(self, obs):
        import spotsim
        return spotsim.SelectionDecision.on_demand(0)


def test_a_python_policy_object_is_scored_like_the_built_in_it_copies():
    harness = "frontier-cs:high_tight_small"
    by_object, object_runs = evaluate_policy(AlwaysOnDemand(), harness)
    by_name, name_runs = evaluate_policy("on-demand", harness)
    assert by_object["policy"] == "python:always-on-demand"
    assert [r["cost"] for r in object_runs] == pytest.approx([r["cost"] for r in name_runs], abs=1e-9)
    assert by_object["score"] == by_name["score"]


def test_a_policy_scores_its_own_runs_and_their_regret():
    from spotsim.score import run_windows
    from spotsim.harness import _write_recording
    from spotsim.harness_windows import RECORDINGS
    harness = "frontier-cs:mixed_tight_small"
    summary, runs = evaluate_policy("adaptive", harness, regret=True)
    prof = profile(harness)
    assert [(r["env"], r["window"], r["deadline_hours"], r["overhead_hours"]) for r in runs] == prof.runs()
    # The same runs one (env, deadline, changeover) at a time through the Python module's window runner.
    expected = {}
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        for env in prof.envs:
            trace = _write_recording(env, RECORDINGS[env], GAP_SECONDS, scratch)
            for deadline in prof.deadlines:
                for d in prof.overheads:
                    columns = run_windows(trace, [s * GAP_SECONDS for _, s, _ in WINDOWS[env]], "adaptive", deadline,
                                          restart_overhead_hours=d)
                    for (w, _, _), cost in zip(WINDOWS[env], columns["cost_total"]):
                        expected[(env, w, deadline, d)] = cost
    for r in runs:
        assert r["cost"] == pytest.approx(expected[(r["env"], r["window"], r["deadline_hours"], r["overhead_hours"])],
                                          abs=1e-9)
        assert r["regret"] == pytest.approx(r["cost"] - r["optimum_cost"], abs=1e-9)
        assert r["regret"] >= -1e-9  # nothing beats the exact optimum of its own window
    assert summary["deadline_misses"] == 0
    assert summary["mean_cost"] == pytest.approx(sum(r["cost"] for r in runs) / len(runs))


def test_the_cli_prints_the_summary_and_writes_the_runs(cli, tmp_path):
    out = tmp_path / "runs.jsonl"
    code, stdout, err = cli("score", "--policy", "greedy", "--harness", "frontier-cs:high_tight_small", "--runs-out",
                            out)
    assert code == 0, err
    summary = json.loads(stdout)
    assert summary["policy"] == "greedy" and summary["runs"] == 120
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 120
    assert summary["mean_cost"] == pytest.approx(sum(r["cost"] for r in lines) / 120)


def test_a_plugins_policy_is_scored_from_the_cli(cli):
    import os
    plugin = os.environ.get("SPOTSIM_EXAMPLE_PLUGIN")
    if not plugin:
        pytest.skip("SPOTSIM_EXAMPLE_PLUGIN names the example plugin (ctest sets it)")
    code, stdout, err = cli("score", "--policy", "slack-guard", "--plugin", plugin, "--harness",
                            "frontier-cs:high_tight_small")
    assert code == 0, err
    summary = json.loads(stdout)
    import spotsim
    spotsim.load_plugin(plugin)
    assert summary == evaluate_policy("slack-guard", "frontier-cs:high_tight_small")[0]
    code, _, err = cli("score", "--policy", "slack-guard", "--harness", "frontier-cs:high_tight_small")
    assert code == 2 and "unknown policy" in err


def test_adaptive_keeps_what_the_docs_claim_on_the_leaderboard():
    # docs/validation.md#harness-grids and README: above the evolved LEVI's 52 (94.79 USD is the most a score above
    # 52 allows) with no late run. A change to a policy that loses this fails here, not in a reader's hands.
    summary, _ = evaluate_policy("adaptive", "adrs-leaderboard")
    assert summary["deadline_misses"] == 0 and summary["failed"] == 0
    assert summary["unbounded"] > 52.0
    assert summary["mean_cost"] < 94.79


def test_the_plan_is_cheaper_than_adaptives_rules_on_every_public_grid():
    # docs/validation.md#harness-grids: `adaptive` (the plan, in this mode) is cheaper than `adaptive:plan=off` on
    # all 15 single-region grids, and neither is late.
    from spotsim.harness import SINGLE_REGION_HARNESSES
    assert len(SINGLE_REGION_HARNESSES) == 15
    for harness in SINGLE_REGION_HARNESSES:
        plan, _ = evaluate_policy("adaptive", harness)
        rules, _ = evaluate_policy("adaptive:plan=off", harness)
        assert plan["deadline_misses"] == rules["deadline_misses"] == 0, harness
        assert plan["mean_cost"] < rules["mean_cost"], harness


def test_adaptive_against_uniform_progress_on_the_paper_windows_as_documented():
    # docs/validation.md#pair-cells (experiments/adaptive/pair_cells.py, the same draw: seed 2024, 300 windows per
    # pair of 554 ticks, d = 0.2 h): adaptive saves more on average (31.7% against 29.1%) and is below Uniform
    # Progress in at most the one cell the docs name (us-west-2b_v100_8 at 70 h, at parity). A change that loses
    # cells fails here.
    import random
    import statistics
    import tempfile
    from spotsim.harness import _write_recording
    from spotsim.harness_windows import RECORDINGS
    from spotsim.score import run_windows
    pairs = ("us-west-2a_k80_1", "us-west-2a_k80_8", "us-west-2a_v100_1", "us-west-2a_v100_8", "us-west-2b_k80_1",
             "us-west-2b_k80_8", "us-west-2b_v100_1", "us-west-2b_v100_8")
    rng = random.Random(2024)
    below, saved = [], {"adaptive": [], "uniform-progress": []}
    with tempfile.TemporaryDirectory() as scratch:
        for pair in pairs:
            trace = _write_recording(pair, RECORDINGS[pair], GAP_SECONDS, scratch)
            starts = [rng.randrange(0, len(RECORDINGS[pair]) - 554) * GAP_SECONDS for _ in range(300)]
            for deadline in (52.0, 56.0, 60.0, 64.0, 70.0, 80.0):
                cost = {p: statistics.mean(run_windows(trace, starts, p, deadline)["cost_total"]) for p in saved}
                for p in saved:
                    saved[p].append(1 - cost[p] / 147.90)
                if cost["adaptive"] > cost["uniform-progress"] + 1e-9:
                    below.append((pair, deadline))
    assert set(below) <= {("us-west-2b_v100_8", 70.0)}, below
    assert statistics.mean(saved["adaptive"]) > statistics.mean(saved["uniform-progress"]) + 0.02

"""Multi-region strategy files run as Frontier-CS's multi-region harness runs them (spotsim.harness_multi,
docs/plugins.md#multi-region-strategy-files), checked against the harness itself:
tests/python/data/frontier_multi_harness_runs.jsonl holds, for each test strategy in harness_strategies_multi/ (each
exercising one of its rules: region switches, a move while on spot, the window files a spec names, the override,
per-zone prices read at a stale tick, two resets per run, failed runs that end a scenario, a refused file, a run
past the window's end) and two variants, every run's cost or failure and the score the harness printed, recorded
with tools/harness/record_frontier_multi_runs.py."""
import json

import pytest

from conftest import REPO
from spotsim import harness_multi
from spotsim.harness import StrategyFile, evaluate

STRATEGIES = REPO / "tests" / "python" / "harness_strategies_multi"
RECORDED = [json.loads(line) for line in open(REPO / "tests" / "python" / "data" / "frontier_multi_harness_runs.jsonl")]
VARIANTS = {("high", 36.0, 0.2): "frontier-cs-multi:high_tight_large",
            ("low", 48.0, 0.05): "frontier-cs-multi:low_loose_small"}


def variant(row):
    return VARIANTS[(row["availability"], row["deadline_hours"], row["overhead_hours"])]


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    """Each variant's window and spec files, written as evaluate() writes them."""
    out = {}
    for name in VARIANTS.values():
        out[name] = harness_multi.write_run_files(str(tmp_path_factory.mktemp(name.split(":")[1])),
                                                  harness_multi.multi_profile(name))
    return out


def test_every_recorded_run_costs_what_the_harness_computed(specs):
    files, checked, failed = {}, 0, 0
    for row in (r for r in RECORDED if r["kind"] == "run"):
        strategy = files.setdefault(row["strategy"], StrategyFile(STRATEGIES / f"{row['strategy']}.py",
                                                                  entry="frontier-multi"))
        prof = harness_multi.multi_profile(variant(row))
        zones = next(z for name, z, _ in [harness_multi.STAGE_1] + prof.scenarios if name == row["scenario"])
        windows = [harness_multi.window(zone, row["window"]) for zone in zones]
        ours = harness_multi.run_multi_window(strategy, windows, row["deadline_hours"], row["overhead_hours"],
                                              specs[variant(row)][(row["scenario"], row["window"])])
        assert ours["ok"] == row["ok"], (row, ours)
        if row["ok"]:
            assert abs(ours["cost"] - row["cost"]) <= 1e-6, (row, ours)
        else:
            failed += 1
            # The harness's message ends with the exception's text; spotsim's names the exception type first.
            assert row["error"].split(": ", 1)[-1].split(" in /")[0] in ours["error"] or \
                row["strategy"] == "not_a_multi_region_solution", (row, ours)
        checked += 1
    # never_starts and the refused file fail all their 62 runs; fails_in_some_runs 5 (3-region window 2s, all 9)
    assert checked == 558 and failed == 62 + 62 + 5


def test_scores_are_what_each_variant_printed():
    for row in (r for r in RECORDED if r["kind"] == "score"):
        summary, runs = evaluate(STRATEGIES / f"{row['strategy']}.py", variant(row), jobs=2)
        payload = row["payload"]
        expected = payload.get("combined_score", payload.get("score"))
        if "combined_score" in payload:  # stage 1 failed: the evaluator script clamps -1e9 to 0
            assert summary["unbounded"] == expected and summary["score"] == 0, (row, summary)
        elif "error" in payload:  # refused before any run
            assert summary["score"] == 0 and payload["error"] in summary["error"] and runs == [], (row, summary)
        else:
            assert summary["score"] == expected, (row, summary)
            assert abs(summary["mean_cost"] - payload["avg_cost"]) <= 1e-6, (row, summary)


def test_a_timeline_shows_where_each_tick_ran(specs):
    strategy = StrategyFile(STRATEGIES / "greedy_switch.py", entry="frontier-multi")
    zones = ["us-west-2a", "us-west-2b", "us-west-2c"]
    windows = [harness_multi.window(zone, 1) for zone in zones]
    run = harness_multi.run_multi_window(strategy, windows, 36.0, 0.2, specs[VARIANTS[("high", 36.0, 0.2)]][
        ("3_regions_diverse", 1)], timeline=True)
    assert run["ok"] and len(run["held"]) == len(run["region"]) == run["ticks"] - 1
    # Billed at the last region's spot price, every tick held (the harness's rule).
    spot_price = windows[int(run["region"][-1])]["prices"][0]
    billed = sum({"S": spot_price, "O": 3.06, "N": 0.0}[c] for c in run["held"]) * 195 / 3600
    assert abs(billed - run["cost"]) < 1e-9
    # Spot held only in ticks where its region had spot.
    for t, (held, region) in enumerate(zip(run["held"], run["region"])):
        if held == "S":
            assert windows[int(region)]["data"][t] == 0, t

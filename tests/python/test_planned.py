"""The `planned` policy from Python and from the CLI: the same runs, windows of a real recording in the Can't Be Late
mode (run_windows builds one policy object per window; the CLI one for all)."""
import csv
import io

from conftest import REPO
from spotsim.score import run_windows

TRACE = REPO / "experiments" / "traces" / "cbl" / "cbl-aws-10-26-2022-us-west-2a_v100_1.json"


def test_planned_costs_the_same_from_python_and_from_the_cli(cli):
    starts = [0, 120 * 600, 700 * 600, 1500 * 600]
    for policy in ("planned", "planned:calibration=none"):
        python = run_windows(TRACE, starts, policy, 52.0, restart_overhead_hours=0.05)
        for i, start in enumerate(starts):
            code, out, err = cli("simulate", "-t", TRACE, "-p", policy, "-c", "continuous", "--mode", "cant-be-late",
                                 "--trace-start", f"{start}s", "--work", "48h", "--deadline", "52h",
                                 "--startup", "180s", "--restore", "0s", "--checkpoint-write", "0s", "-n", "1",
                                 "-f", "csv", "-q")
            assert code == 0, err
            row = next(csv.DictReader(io.StringIO(out)))
            assert float(row["cost_total"]) == python["cost_total"][i], (policy, start)
            assert int(row["deadline_met"]) == 1 and python["deadline_met"][i]


def test_clearing_the_plan_cache_frees_the_kept_plans_and_changes_no_run():
    import spotsim
    starts = [0, 700 * 600]
    before = run_windows(TRACE, starts, "planned:calibration=none", 61.5, restart_overhead_hours=0.1)
    kept = spotsim.plan_cache_statistics()
    assert kept["kept"] >= 1 and kept["kept_bytes"] > 0
    spotsim.clear_plan_cache()
    cleared = spotsim.plan_cache_statistics()
    assert cleared["kept"] == 0 and cleared["kept_bytes"] == 0
    assert (cleared["solved"], cleared["reused"]) == (kept["solved"], kept["reused"])
    again = run_windows(TRACE, starts, "planned:calibration=none", 61.5, restart_overhead_hours=0.1)
    assert list(again["cost_total"]) == list(before["cost_total"])
    assert spotsim.plan_cache_statistics()["solved"] == kept["solved"] + 1  # solved anew, not found kept

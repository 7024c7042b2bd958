"""Every output that reports regret says what it is measured against: the offline optimum's grid and whether the
optimum is exact on it or a lower bound (multi-region checkpoint transfers rounded down to the grid). simulate puts it
in its manifest (JSON and CSV) and under its table; sweep per configuration in summary.json, in sweep.json and the
manifest per trace and job, and once in summary.md; a resumed sweep and a merge of shards read it back unchanged.
Outputs without regret do not carry it."""
import json

import pytest

MULTI_REGION = ["--trace", "gcp-h100-capacity-13-zones", "--regions", "us-central1,us-east4", "--policy", "greedy",
                "--work", "12h", "--deadline", "20h", "-n", "2", "--threads", "1"]


@pytest.mark.parametrize("checkpoint_size, exact", [("50GB", False), ("0GB", True)])
def test_simulate_says_whether_the_optimum_is_exact(cli, cli_json, checkpoint_size, exact):
    args = MULTI_REGION + ["--checkpoint-size", checkpoint_size, "--regret"]
    report = cli_json("simulate", *args, "--format", "json")
    optimum = report["manifest"]["optimum"]
    assert optimum["exact"] is exact and optimum["grid_s"] > 0
    code, table, err = cli("simulate", *args)
    assert code == 0, err
    line = [text for text in table.splitlines() if text.startswith("offline optimum:")]
    assert len(line) == 1
    assert ("lower bound" in line[0]) is not exact
    without = cli_json("simulate", *MULTI_REGION, "--checkpoint-size", checkpoint_size, "--format", "json")
    assert "optimum" not in without["manifest"]


def test_a_sweep_reports_the_grid_per_configuration_and_keeps_it_across_a_merge(cli, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "format": "spotsim-experiment", "version": 1, "name": "grid", "seed": 3, "replications": 3,
        "traces": [{"trace": "gcp-h100-capacity-13-zones", "regions": ["us-central1", "us-east4"], "name": "two"}],
        "policies": ["greedy", "cost-aware"], "checkpoints": ["continuous"], "regret": True, "chunk_runs": 2,
        "job": {"name": "j", "work_hours": 12, "deadline_hours": 20},
        "job_grid": {"checkpoint_size_gb": [0, 50]}}))
    whole = tmp_path / "whole"
    code, _, err = cli("sweep", spec, "--out", whole, "--quiet")
    assert code == 0, err
    summary = json.loads((whole / "summary.json").read_text())
    by_job = {c["job"]: c["optimum"] for c in summary["configurations"]}
    assert by_job["checkpoint_size_gb=0"]["exact"] is True
    assert by_job["checkpoint_size_gb=50"]["exact"] is False
    manifest = json.loads((whole / "manifest.json").read_text())
    assert [g["exact"] for g in manifest["traces"][0]["optimum_by_job"]] == [True, False]
    assert "a lower bound for 1 of 2 trace × job pairs" in (whole / "summary.md").read_text()

    for shard in ("1", "2"):
        code, _, err = cli("sweep", spec, "--out", tmp_path / ("shard" + shard), "--shard", shard + "/2", "--quiet")
        assert code == 0, err
    merged = tmp_path / "merged"
    code, _, err = cli("sweep", "merge", tmp_path / "shard1", tmp_path / "shard2", "--out", merged)
    assert code == 0, err
    for name in ("summary.json", "summary.md", "manifest.json"):
        assert (merged / name).read_bytes() == (whole / name).read_bytes(), name


def test_a_sweep_without_regret_has_no_optimum_key(cli, tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "format": "spotsim-experiment", "version": 1, "name": "plain", "seed": 3, "replications": 2,
        "traces": ["aws-us-west-2-v100"], "policies": ["greedy"], "checkpoints": ["continuous"],
        "job": {"name": "j", "work_hours": 6, "deadline_hours": 9}}))
    code, _, err = cli("sweep", spec, "--out", tmp_path / "out", "--quiet")
    assert code == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert all("optimum" not in c for c in summary["configurations"])
    assert "optimum_by_job" not in json.loads((tmp_path / "out" / "manifest.json").read_text())["traces"][0]
    assert "Regret:" not in (tmp_path / "out" / "summary.md").read_text()

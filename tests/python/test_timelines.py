"""spotsim.read_timeline: a `simulate --timeline` file read back from Python by the report's own reader, for every
engine that writes one, and what it says agrees with the run it logs."""
import json

import pytest

import spotsim

TICKS = ["--mode", "cant-be-late", "-c", "continuous", "--startup", "12m", "--restore", "0s", "--checkpoint-write",
         "0s"]


@pytest.mark.parametrize("args", [
    ["-t", "aws-us-west-2-v100", *TICKS, "-p", "adaptive"],
    ["-t", "aws-us-west-2-v100", *TICKS, "-p", "optimal-offline"],
    ["-t", "us-west1", "-p", "adaptive"],
    ["-t", "gcp-h100-13-zones", "--regions", "us-central1,us-east4", "--checkpoint-size", "200GB", "-p", "cost-aware"],
], ids=["tick-adaptive", "tick-optimum", "event", "multi-region"])
def test_a_timeline_read_from_python_agrees_with_its_runs(cli, tmp_path, args):
    timeline, result = tmp_path / "t.jsonl", tmp_path / "r.json"
    code, _, err = cli("simulate", *args, "--work", "12h", "--deadline", "18h", "-n", "4", "--threads", "1",
                       "--timeline", timeline, "--timeline-replications", "0,2,3", "-f", "json", "-o", result, "-q")
    assert code == 0, err
    runs = json.loads(result.read_text())["runs"]
    read = spotsim.read_timeline(timeline)
    assert read.header["policy"] == args[args.index("-p") + 1]
    assert [r.replication for r in read.runs] == [0, 2, 3]
    lossless = "cant-be-late" in args
    for run in read.runs:
        logged = runs[run.replication]
        assert run.finished and run.completed == bool(logged["completed"])
        assert run.end_hours == pytest.approx(logged["completion_hours"], abs=1e-9)
        assert run.cost_usd == pytest.approx(logged["cost_total"], abs=1e-9)
        assert run.starts("spot") == logged["spot_starts"]
        assert run.starts("on-demand") == logged["on_demand_starts"]
        assert set(run.held["zone_name"]) <= set(read.zones)
        if lossless:  # every hour computed is work kept: by the end, the whole job
            assert run.computing_hours_by(run.end_hours) == pytest.approx(12.0, abs=1e-9)
        assert run.computing_hours_by(0.0) == 0.0
        assert run.computing_hours_by(run.end_hours / 2) <= run.computing_hours_by(run.end_hours)


def test_a_file_that_is_not_a_timeline_is_refused_naming_it(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "spotsim-trace"}\n')
    with pytest.raises(spotsim.InputError, match="bad.jsonl"):
        spotsim.read_timeline(bad)

"""bench/window_files.py, which lays the Can't Be Late windows out as a user reproducing the paper would (one trace
file per window) for the speed table: a sweep over those files must give, run for run, what `simulate` gives on the
whole recording started at each window's start, in both modes. Otherwise the speed row would time the wrong work."""
import csv
import json
import re
import subprocess
import sys

import pytest

from conftest import REPO

RECORDING = REPO / "experiments" / "traces" / "cbl" / "cbl-aws-10-26-2022-us-west-2a_v100_1.json"


@pytest.mark.parametrize("mode", ["event", "cant-be-late"])
def test_each_window_file_runs_as_the_recording_started_there(cli, cli_json, tmp_path, mode):
    windows = tmp_path / "windows"
    spec = subprocess.run([sys.executable, str(REPO / "bench" / "window_files.py"), "--trace", str(RECORDING),
                           "--windows", "9", "--deadlines", "52", "56", "--mode", mode, "--out", str(windows)],
                          check=True, capture_output=True, text=True).stdout.strip()
    code, _, err = cli("sweep", spec, "--out", tmp_path / "out", "-q")
    assert code == 0, err
    with open(tmp_path / "out" / "runs.csv") as f:
        runs = list(csv.DictReader(f))
    assert len(runs) == 18
    checked = 0
    for run in runs:
        description = json.loads((windows / (run["trace"] + ".json")).read_text())["description"]
        start = re.search(r"the window \[(\d+) s,", description).group(1)
        deadline = re.search(r"deadline_hours=([0-9.]+)", run["job"]).group(1)
        whole = cli_json("simulate", "--trace", RECORDING, "--trace-start", start + "s", "--mode", mode,
                         "--policy", "greedy", "--checkpoint", "continuous", "--work", "48h",
                         "--deadline", deadline + "h", "--restore", "0s", "--checkpoint-write", "0s",
                         "--startup", "720s", "-n", "1", "--format", "json")
        for metric in ("cost_total", "completion_hours"):
            assert float(run[metric]) == pytest.approx(whole["summary"][metric]["mean"], abs=1e-9), (run, metric)
        checked += 1
    assert checked == 18

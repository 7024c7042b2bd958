"""Shared fixtures: the CLI the module is compared with, and the shared data (tests that need it skip, saying why,
when it is absent)."""
import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(os.environ.get("SPOTSIM_REPO_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def cli():
    """Runs `spotsim ARGS...`; returns (exit code, stdout, stderr)."""
    path = os.environ.get("SPOTSIM_CLI")
    if not path or not pathlib.Path(path).exists():
        pytest.fail("SPOTSIM_CLI must name the built spotsim executable (ctest sets it)")

    def run(*args):
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True, cwd=REPO)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    def run(*args):
        code, out, err = cli(*args)
        assert code == 0, err
        return json.loads(out)

    return run


@pytest.fixture(scope="session")
def shared():
    directory = pathlib.Path(os.environ.get("SPOTSIM_SHARED_DIR", REPO.parent / "shared"))
    if not (directory / "data").is_dir():
        pytest.skip(f"shared data not found at {directory} (set SPOTSIM_SHARED_DIR)")
    return directory


def recorded_windows(shared, runs):
    """(pair, window id) -> spot availability per tick of every window that recorded harness `runs` use, cut from the
    base recording in ../shared as the harnesses' window files are (windows.csv's start_tick..end_tick)."""
    import csv
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    wanted = {(run["pair"], run["window"]) for run in runs}
    bases, out = {}, {}
    for r in csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv")):
        pair, window = r["pair"], int(r["window"])
        if (pair, window) not in wanted:
            continue
        if pair not in bases:
            bases[pair] = json.load(open(base_dir / f"{pair}.json"))["data"]
        out[(pair, window)] = [x == 1 for x in bases[pair][int(r["start_tick"]):int(r["end_tick"])]]
    assert len(out) == len(wanted)
    return out

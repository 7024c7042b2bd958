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

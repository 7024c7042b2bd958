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


def run_recorded(runs, windows, strategy_file_of, cpu_limit_s=0.3):
    """spotsim.harness.run_window for every recorded harness run, in the record's order; strategy_file_of(name) gives
    the run's StrategyFile (a file imported once, a fresh object per run). A run gets `cpu_limit_s` of CPU: one that
    never ends (the harness would fail it, or wait forever) fails here instead of hanging the test."""
    import signal
    from spotsim.harness import RunTimeLimit, run_window

    def over_limit(signum, frame):
        raise RunTimeLimit(f"the run took more than {cpu_limit_s} s of CPU")
    previous = signal.signal(signal.SIGVTALRM, over_limit)
    out = []
    try:
        for run in runs:
            strategy = strategy_file_of(run["strategy"])
            signal.setitimer(signal.ITIMER_VIRTUAL, cpu_limit_s)
            try:
                out.append(run_window(strategy, windows[(run["pair"], run["window"])], 600, run["deadline_hours"],
                                      run["overhead_hours"]))
            finally:
                signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    finally:
        signal.signal(signal.SIGVTALRM, previous)
    return out


def harness_disagreements(runs, ours, expected_errors):
    """The recorded runs spotsim does not reproduce: another verdict, a cost more than 1e-6 USD away, or a failure
    whose message lacks the strategy's expected text (a string, or a tuple of strings that must all appear)."""
    def expected(name):
        words = expected_errors[name]
        return (words,) if isinstance(words, str) else words
    differ = []
    for run, mine in zip(runs, ours):
        same = mine["ok"] == run["ok"] and (
            abs(mine["cost"] - run["cost"]) <= 1e-6 if run["ok"]
            else all(w in mine["error"] for w in expected(run["strategy"])))
        if not same:
            differ.append((run["strategy"], run["pair"], run["window"], run["deadline_hours"], run["overhead_hours"],
                           run["cost"] if run["ok"] else run["error"].splitlines()[-1],
                           mine["cost"] if mine["ok"] else mine["error"]))
    return differ

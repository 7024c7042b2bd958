"""Progress of the module's sweeps: on stderr when asked (or in a terminal / notebook), never on the results."""
import io
import os
import subprocess
import sys

import pytest

import spotsim
from spotsim import progress

ARGS = dict(traces=["us-west1"], policies=["spot-only", "on-demand"], checkpoints=["daly"], replications=20, seed=4,
            work="12h")


def test_progress_never_changes_a_result(capfd):
    quiet = spotsim.sweep(progress=False, **ARGS)
    assert capfd.readouterr().err == ""
    shown = spotsim.sweep(progress=True, **ARGS)
    err = capfd.readouterr().err
    assert "sweep" in err and "2/2" in err
    assert quiet.runs.equals(shown.runs)


def test_default_is_silent_when_stderr_is_not_a_terminal(capfd):
    spotsim.sweep(**ARGS)  # pytest's stderr is a pipe, and this is no notebook
    assert capfd.readouterr().err == ""


def test_progress_must_be_a_bool_or_none():
    with pytest.raises(TypeError, match="progress: expected True, False or None"):
        spotsim.sweep(progress="yes", **ARGS)


def test_text_line_has_count_rate_and_eta():
    stream = io.StringIO()
    line = progress.TextProgress(4, "sweep", stream=stream, min_interval=0.0)
    for _ in range(4):
        line.update()
    line.close()
    text = stream.getvalue()
    assert "\rsweep: 1/4 cells, " in text and "cells/s, ETA " in text
    assert text.endswith("\n") and "4/4 cells in" in text


def test_text_line_is_drawn_at_most_once_a_second():
    stream = io.StringIO()
    line = progress.TextProgress(1000, "sweep", stream=stream, min_interval=1.0)
    for _ in range(999):
        line.update()
    assert stream.getvalue() == ""  # 999 fast cells: nothing drawn yet
    line.update()
    assert stream.getvalue().count("\r") == 1  # the last one is always drawn


def test_import_from_an_interpreter_without_numpy_says_what_to_run():
    # `python3 -S` leaves out site-packages (Debian's numpy and pandas): the user's pyenv python3 in miniature.
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-S", "-c", "import spotsim"], capture_output=True, text=True, env=env)
    assert done.returncode != 0
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("ImportError: spotsim needs numpy and pandas"), done.stderr
    assert "dev python" in message and sys.executable.split("/")[-1] in message


def test_import_from_another_python_version_says_what_to_run(monkeypatch):
    from spotsim import _environment

    class Other:
        PYTHON, PYTHON_VERSION, SOURCE_DIR = "/usr/bin/python3.99", (3, 99), "/src"

    monkeypatch.setattr(_environment, "_build_info", Other)
    with pytest.raises(ImportError, match=r"built for /usr/bin/python3.99 \(Python 3.99\); run `/src/dev python`"):
        _environment.check_interpreter()

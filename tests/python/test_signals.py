"""Ctrl-C, SIGTERM and SIGHUP during a long write remove the temporary file before spotsim dies of the signal
(docs/outputs.md#formats): nothing hidden is left beside the output, and the output itself is untouched."""
import os
import signal
import subprocess
import time

import pytest


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_leaves_no_temporary_file(tmp_path, sig):
    cli = os.environ["SPOTSIM_CLI"]
    out = tmp_path / "runs.csv"
    out.write_text("earlier result\n")
    child = subprocess.Popen([cli, "simulate", "-n", "50000000", "--threads", "1", "--quiet", "-f", "csv", "-o",
                              str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(".tmp." in n for n in os.listdir(tmp_path)):
        time.sleep(0.02)
    assert any(".tmp." in n for n in os.listdir(tmp_path)), "the streamed output never started"
    time.sleep(0.2)  # some rows written
    child.send_signal(sig)
    child.wait(timeout=30)
    assert child.returncode == -sig, child.stderr.read()
    assert os.listdir(tmp_path) == ["runs.csv"]
    assert out.read_text() == "earlier result\n"

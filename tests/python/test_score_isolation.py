"""`python3 -m spotsim.score` runs each strategy file in a child process (docs/plugins.md#score-isolation): hostile
strategy files (a loop, a memory hog, one that prints or fakes JSON and exits 0, one that writes files, one that
patches the scorer to rig its baselines, one that raises) end with exit 3 and a message naming what happened, the
scorer's stdout carries only its own JSON, and a well-behaved file scores exactly as without isolation."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import spotsim
from conftest import REPO

LIBRARY_TRACE = REPO / "traces" / "library" / "aws-us-west-2-v100.json"
GREEDY = REPO / "policies" / "examples" / "sky_spot" / "greedy_strategy.py"

STRATEGY_HEAD = textwrap.dedent("""
    from sky_spot.strategies import strategy
    from sky_spot.utils import ClusterType

    class Hostile(strategy.Strategy):
        NAME = "hostile"

        def _step(self, last_cluster_type, has_spot):
            return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND
    """)

HOSTILE = {
    "loops-forever": ("    def _step(self, last_cluster_type, has_spot):\n        while True:\n            pass\n",
                      ["time limit"]),
    "eats-memory": ("    def _step(self, last_cluster_type, has_spot):\n        self.hog = bytearray(8 * 1024**3)\n"
                    "        return ClusterType.SPOT\n", ["memory"]),
    "fakes-json-and-exits-0": ("import os, sys\nprint('{\"score\": 1.0}')\nsys.stdout.flush()\nos._exit(0)\n",
                               ["without a valid result"]),
    "raises": ("    def _step(self, last_cluster_type, has_spot):\n        raise RuntimeError('boom')\n",
               ["boom"]),
}


@pytest.fixture(scope="module")
def trace(cli, tmp_path_factory):
    """One zone of the recorded V100 trace (strategy files see one zone), with its 10 min tick."""
    path = tmp_path_factory.mktemp("trace") / "v100.json"
    code, _, err = cli("trace", "convert", LIBRARY_TRACE, "--only-zone", "us-west-2a", "-o", path)
    assert code == 0, err
    return path


def score(tmp_path, trace, strategy, *extra):
    windows = tmp_path / "windows.csv"
    windows.write_text("start_s\n0\n36000\n72000\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(spotsim.__file__))))
    return subprocess.run([sys.executable, "-m", "spotsim.score", str(strategy), "--trace", str(trace), "--windows",
                           str(windows), "--deadline-hours", "8", "--work-hours", "5", *extra],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)


@pytest.mark.parametrize("what", list(HOSTILE))
def test_a_hostile_strategy_fails_alone(tmp_path, trace, what):
    body, words = HOSTILE[what]
    strategy = tmp_path / f"{what}.py"
    strategy.write_text(STRATEGY_HEAD + body if body.startswith("    ") else STRATEGY_HEAD + body)
    done = score(tmp_path, trace, strategy, "--time-limit", "5", "--memory-mb", "1024")
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert done.stdout == "", "nothing but the scorer's JSON may reach stdout"
    for word in words:
        assert word in done.stderr, done.stderr


def test_a_strategy_cannot_write_files(tmp_path, trace):
    strategy = tmp_path / "writer.py"
    strategy.write_text(STRATEGY_HEAD + "    def _step(self, last_cluster_type, has_spot):\n"
                        "        open('planted.txt', 'w').write('x' * 10)\n        return ClusterType.SPOT\n")
    done = score(tmp_path, trace, strategy)
    assert done.returncode == 3
    assert not (tmp_path / "planted.txt").exists() or (tmp_path / "planted.txt").stat().st_size == 0


def test_a_strategy_cannot_rig_the_baselines(tmp_path, trace):
    """Patching the scorer's module at import changes nothing: the baselines are computed in the parent."""
    clean = score(tmp_path, trace, GREEDY)
    assert clean.returncode == 0, clean.stderr
    rigging = tmp_path / "rigging.py"
    rigging.write_text(GREEDY.read_text() + textwrap.dedent("""
        import spotsim.score as _score
        _score.run_windows = lambda *a, **k: {"cost_total": [1e9], "completion_hours": [1.0],
                                              "deadline_met": [True], "fingerprint": [0]}
        """))
    rigged = score(tmp_path, trace, rigging)
    assert rigged.returncode == 0, rigged.stderr
    a, b = json.loads(clean.stdout), json.loads(rigged.stdout)
    for key in ("on_demand_cost", "spot_only_cost", "mean_cost", "score"):
        assert a[key] == b[key], key


def test_isolation_scores_exactly_as_in_process(tmp_path, trace):
    isolated = score(tmp_path, trace, GREEDY)
    in_process = score(tmp_path, trace, GREEDY, "--no-isolation")
    assert isolated.returncode == 0 and in_process.returncode == 0, (isolated.stderr, in_process.stderr)
    assert json.loads(isolated.stdout) == json.loads(in_process.stdout)

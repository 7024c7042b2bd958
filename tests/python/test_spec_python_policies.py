"""Python classes named in experiment specs, python:MODULE:Class (docs/plugins.md#python-in-specs): `spotsim sweep`
and `spotsim regress` re-run themselves inside Python and run them with the CLI's own code. Guards: the runs equal
those of the same classes through the Python API; a baseline records each module's path and content hash, regress
names a module that changed; old baselines load; bad modules and classes fail with the spec and the policy named."""
import json
import os
import pathlib
import subprocess

import numpy as np
import pandas as pd
import pytest

import spotsim

POLICIES = '''
import spotsim


class SpotUntilLate:
    """Spot in zone 0 until less than SLACK hours of slack are left, then on-demand."""
    SLACK = 6

    def reset(self):
        self.calls = 0

    def decide(self, obs):
        self.calls += 1
        if obs.time_to_deadline - obs.remaining_work < self.SLACK * 3600:
            return spotsim.SelectionDecision.on_demand(0)
        return spotsim.SelectionDecision.spot(0)


class EveryTwoHours:
    def next_interval(self, obs):
        return 7200.0
'''

SPEC = {"format": "spotsim-experiment", "version": 1, "name": "python classes", "replications": 40, "seed": 3,
        "traces": ["us-west1", "gcp-us-central1-c"],
        "policies": ["python:team_policies:SpotUntilLate", "greedy"],
        "checkpoints": ["young-daly", "python:team_policies:EveryTwoHours"],
        "job": {"work_hours": 24, "deadline_hours": 30}}


def fnv1a64_hex(data):
    """The content hash baselines record (64-bit FNV-1a of the file's bytes), computed independently."""
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def spotsim_cli(*args, cwd, env=None):
    full = dict(os.environ)
    full.update(env or {})
    done = subprocess.run([os.path.abspath(os.environ["SPOTSIM_CLI"]), *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          env=full)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture()
def experiment(tmp_path):
    """A spec beside its module, in a directory that is not on PYTHONPATH (the spec's directory is searched)."""
    (tmp_path / "team_policies.py").write_text(POLICIES)
    (tmp_path / "spec.json").write_text(json.dumps(SPEC))
    return tmp_path


def test_sweep_runs_equal_the_python_api(experiment, monkeypatch):
    code, _, err = spotsim_cli("sweep", "spec.json", "--out", "out", cwd=experiment)
    assert code == 0, err
    cli = pd.read_csv(experiment / "out/runs.csv", dtype={"seed": "uint64", "fingerprint": "uint64"})
    assert set(cli["policy"]) == {"python:team_policies:SpotUntilLate", "greedy"}
    monkeypatch.syspath_prepend(str(experiment))
    import team_policies
    compared = 0
    for trace, rows in cli.groupby("trace"):
        seed = int(rows["seed"].iloc[0])  # each trace's seed (docs/experiments.md#runs-seeds-and-common-random-numbers)
        api = spotsim.sweep(traces=[trace], policies=[team_policies.SpotUntilLate(), "greedy"],
                            checkpoints=["young-daly", team_policies.EveryTwoHours()], replications=40, seed=seed,
                            work="24h", deadline="30h", progress=False)
        names = {"python:SpotUntilLate": "python:team_policies:SpotUntilLate",
                 "python:EveryTwoHours": "python:team_policies:EveryTwoHours"}
        runs = api.runs.replace({"policy": names, "checkpoint": names})
        for (policy, checkpoint), mine in runs.groupby(["policy", "checkpoint"]):
            theirs = rows[(rows["policy"] == policy) & (rows["checkpoint"] == checkpoint)]
            assert len(theirs) == 40
            assert np.array_equal(mine["fingerprint"].to_numpy().astype("uint64"), theirs["fingerprint"].to_numpy())
            assert np.allclose(mine["cost_total"].to_numpy(), theirs["cost_total"].to_numpy(), rtol=1e-9, atol=1e-6)
            compared += 1
    assert compared == 8
    # The class decides differently from greedy somewhere, or the comparison above would prove little.
    python_rows = cli[cli["policy"] == "python:team_policies:SpotUntilLate"]["fingerprint"].to_numpy()
    assert not np.array_equal(python_rows, cli[cli["policy"] == "greedy"]["fingerprint"].to_numpy())


def test_baseline_records_the_module_and_regress_names_a_change(experiment):
    code, _, err = spotsim_cli("regress", "--update", "--from-spec", "spec.json", "base.json", cwd=experiment)
    assert code == 0, err
    baseline = json.loads((experiment / "base.json").read_text())
    module = experiment / "team_policies.py"
    assert baseline["plugins"] == [{"path": os.path.realpath(module), "content_hash": fnv1a64_hex(module.read_bytes()),
                                    "policies": ["python:team_policies:SpotUntilLate",
                                                 "python:team_policies:EveryTwoHours"]}]
    code, out, err = spotsim_cli("regress", "base.json", cwd=experiment)
    assert code == 0, err
    assert "0 moved" in out and "note:" not in out and "changed since" not in err

    # Same behaviour, other bytes: the numbers pass, a note names both hashes.
    module.write_text(POLICIES + "\n# reformatted\n")
    code, out, err = spotsim_cli("regress", "base.json", "--format", "json", cwd=experiment)
    assert code == 0, err
    report = json.loads(out)["baselines"][0]
    assert report["moved"] == 0
    assert len(report["notes"]) == 2 and all("the module changed since" in n for n in report["notes"])
    assert baseline["plugins"][0]["content_hash"] in report["notes"][0]
    assert fnv1a64_hex(module.read_bytes()) in report["notes"][0]

    # Other behaviour: the numbers decide (a regression), and the note says why to look at the module.
    module.write_text(POLICIES.replace("SLACK = 6", "SLACK = 29"))
    code, out, err = spotsim_cli("regress", "base.json", cwd=experiment)
    assert code == 1, err
    assert "regressed" in out and "the module changed since" in out


def test_a_baseline_without_the_plugins_field_still_loads(experiment):
    code, _, err = spotsim_cli("regress", "--update", "--from-spec", "spec.json", "base.json", cwd=experiment)
    assert code == 0, err
    baseline = json.loads((experiment / "base.json").read_text())
    del baseline["plugins"]
    (experiment / "old.json").write_text(json.dumps(baseline))
    code, out, err = spotsim_cli("regress", "old.json", cwd=experiment)
    assert code == 0, err
    assert "0 moved" in out and "note:" not in out


def test_the_module_is_found_on_pythonpath_but_not_in_the_current_directory(experiment, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("specs")
    (elsewhere / "spec.json").write_text(json.dumps(SPEC))
    code, _, err = spotsim_cli("sweep", elsewhere / "spec.json", "--out", elsewhere / "o1", cwd=experiment)
    assert code == 2 and "no module 'team_policies'" in err and "spec.json" in err
    code, _, err = spotsim_cli("sweep", elsewhere / "spec.json", "--out", elsewhere / "o2", cwd=elsewhere,
                               env={"PYTHONPATH": str(experiment) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert code == 0, err


BAD_MODULE = '''
import spotsim


class RaisesWhenMade:
    def __init__(self):
        raise RuntimeError("no team config")


class RaisesInDecide:
    def decide(self, obs):
        return {}["zone"]


class ReturnsText:
    def decide(self, obs):
        return "spot"


class NoDecide:
    pass
'''


@pytest.mark.parametrize("policy, words", [
    ("python:missing_module:Policy", ["no module 'missing_module'"]),
    ("python:bad_policies:Missing", ["has no class 'Missing'", "bad_policies.py"]),
    ("python:bad_policies:RaisesWhenMade", ["creating the policy raised RuntimeError: no team config"]),
    ("python:bad_policies:NoDecide", ["expected a method decide(observation)"]),
    ("python:broken_syntax:Policy", ["does not compile", "broken_syntax.py, line 1", "SyntaxError"]),
    ("python:bad_policies:RaisesInDecide", ["raised KeyError: 'zone'", "bad_policies.py(12): decide"]),
    ("python:bad_policies:ReturnsText", ["decide() returned str"]),
    ("python:bad_policies", ["expected python:MODULE:Class"]),
])
def test_bad_modules_and_classes_name_the_spec_and_the_policy(tmp_path, policy, words):
    (tmp_path / "bad_policies.py").write_text(BAD_MODULE)
    (tmp_path / "broken_syntax.py").write_text("def policy(:\n    pass\n")
    spec = dict(SPEC, traces=["us-west1"], policies=[policy], checkpoints=["young-daly"], replications=3)
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    code, out, err = spotsim_cli("sweep", "spec.json", "--out", "out", cwd=tmp_path)
    assert code == 2, err
    assert err.startswith("spotsim sweep: error: spec.json") and policy in err and "Traceback" not in err
    for word in words:
        assert word in err
    assert not (tmp_path / "out/summary.json").exists()
    # regress --update --from-spec reports the same, and writes no baseline.
    code, _, err = spotsim_cli("regress", "--update", "--from-spec", "spec.json", "b.json", cwd=tmp_path)
    assert code == 2 and "spec.json" in err and policy in err
    assert not (tmp_path / "b.json").exists()


def test_commands_that_do_not_host_python_say_where_it_runs(tmp_path):
    code, _, err = spotsim_cli("simulate", "--policy", "python:team_policies:SpotUntilLate", "-n", "3", cwd=tmp_path)
    assert code == 2
    assert "'python:team_policies:SpotUntilLate'" in err and "spotsim sweep" in err

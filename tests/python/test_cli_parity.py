"""CLI and Python parity (docs/testing.md#cli-and-python-parity): an option that exists on one side only, or an
input one side refuses and the other accepts, fails here.

simulate() reads its keyword arguments through the CLI's own option schema (app/options/simulate_request_options.cpp),
so parity there is structural; these tests keep it so: the signature must name every schema option, and a matrix
of inputs must be accepted or refused alike, with the same message and, when accepted, the same numbers.
"""
import inspect
import json
import re

import pytest

import spotsim
from spotsim import _spotsim

# Options of the schema simulate() does not take as keyword arguments, each with the reason.
SIMULATE_CLI_ONLY = {
    "checkpoint-size-gb": "the older spelling of --checkpoint-size, kept for old command lines",
}
# Keyword arguments of simulate() that are not options of the schema.
SIMULATE_PYTHON_ONLY = set()


def python_name(option):
    return option.replace("-", "_")


def test_simulate_takes_every_option_of_the_cli_schema():
    schema = {o["name"] for o in _spotsim.option_schema("simulate")}
    parameters = set(inspect.signature(spotsim.simulate).parameters)
    missing = {o for o in schema if python_name(o) not in parameters and o not in SIMULATE_CLI_ONLY}
    extra = {p for p in parameters if p.replace("_", "-") not in schema and p not in SIMULATE_PYTHON_ONLY}
    assert not missing, f"CLI options simulate() lacks: {sorted(missing)}"
    assert not extra, f"simulate() keyword arguments the CLI lacks: {sorted(extra)}"
    assert set(SIMULATE_CLI_ONLY) <= schema, "a CLI-only exception names an option the schema no longer has"


def schema_defaults(command):
    return {o["name"]: o["default"] for o in _spotsim.option_schema(command)}


def same_default(python_default, cli_default):
    """A keyword argument's default against the schema's text: "1000" is the integer 1000, a flag's False is no
    default, None is None."""
    if cli_default is None:
        return python_default is None or python_default is False
    if isinstance(python_default, bool):
        return False
    return str(python_default) == cli_default or python_default == cli_default


def test_simulate_defaults_are_the_clis():
    """A keyword argument's default is the CLI schema's (None where the schema has none)."""
    defaults = schema_defaults("simulate")
    for name, parameter in inspect.signature(spotsim.simulate).parameters.items():
        if name == "policy":
            assert parameter.default is None  # the CLI's adaptive, or spot-nodes with min_nodes
        else:
            assert same_default(parameter.default, defaults[name.replace("_", "-")]), name


# (python keyword arguments, CLI arguments): each is accepted by both with the same numbers, or refused by both
# with the same message. Drawn across the options that select zones, size the job and move it.
ACCEPT_OR_REFUSE_ALIKE = [
    ({"trace": "gcp-h100-13-zones", "regions": "us-central1,us-east4", "checkpoint_size": "200GB",
      "policy": "greedy", "work": "24h", "deadline": "36h"},
     ["--trace", "gcp-h100-13-zones", "--regions", "us-central1,us-east4", "--checkpoint-size", "200GB",
      "--policy", "greedy", "--work", "24h", "--deadline", "36h"]),
    ({"trace": "gcp-h100-13-zones", "zones": "us-central1-a,us-east4-b", "policy": "cost-aware"},
     ["--trace", "gcp-h100-13-zones", "--zones", "us-central1-a,us-east4-b", "--policy", "cost-aware"]),
    ({"trace": "gcp-h100-13-zones", "regions": "mars-north1"}, ["--trace", "gcp-h100-13-zones", "--regions", "mars-north1"]),
    ({"trace": "gcp-h100-13-zones", "regions": "us-east4", "zones": "us-east4-a"},
     ["--trace", "gcp-h100-13-zones", "--regions", "us-east4", "--zones", "us-east4-a"]),
    ({"checkpoint_size": "lots"}, ["--checkpoint-size", "lots"]),
    ({"checkpoint_size": "1.5TB"}, ["--checkpoint-size", "1.5TB"]),
    ({"gpus": 8, "trace": "gcp-h100-13-zones"}, ["--gpus", "8", "--trace", "gcp-h100-13-zones"]),
    ({"gpus": 0}, ["--gpus", "0"]),
    ({"nodes": "3"}, ["--nodes", "3"]),
    ({"network_gbps": 0.5, "min_nodes": 1, "nodes": 2, "trace": "aws-p3-bamboo-32-node"},
     ["--network-gbps", "0.5", "--min-nodes", "1", "--nodes", "2", "--trace", "aws-p3-bamboo-32-node"]),
    ({"timeline_replications": "0,1"}, ["--timeline-replications", "0,1"]),
    ({"mode": "cant-be-late", "checkpoint": "continuous", "trace": "aws-us-west-2-v100", "tick": "10m",
      "startup": "12m", "restore": "0s", "checkpoint_write": "0s", "deadline": "60h"},
     ["--mode", "cant-be-late", "--checkpoint", "continuous", "--trace", "aws-us-west-2-v100", "--tick", "10m",
      "--startup", "12m", "--restore", "0s", "--checkpoint-write", "0s", "--deadline", "60h"]),
    ({"tick": "10m"}, ["--tick", "10m"]),
    ({"regret": True, "trace": "aws-us-west-2-v100", "deadline": "60h"},
     ["--regret", "--trace", "aws-us-west-2-v100", "--deadline", "60h"]),
]


@pytest.mark.parametrize("python_options,cli_args", ACCEPT_OR_REFUSE_ALIKE)
def test_same_input_same_verdict(cli, python_options, cli_args):
    code, out, err = cli("simulate", *cli_args, "-n", "20", "--format", "json", "--threads", "1")
    try:
        result = spotsim.simulate(**{"replications": 20, "threads": 1, **python_options})
    except spotsim.InputError as e:
        assert code == 2, f"Python refused ({e}) what the CLI accepted"
        assert str(e) == err.partition(": error: ")[2].rstrip("\n")
        return
    assert code == 0, f"the CLI refused ({err.strip()}) what Python accepted"
    cli_doc = json.loads(out)
    py_doc = result.as_dict()
    for metric in ("cost_total", "completion_hours", "deadline_met"):
        assert py_doc["summary"][metric]["mean"] == cli_doc["summary"][metric]["mean"], metric
    assert py_doc["manifest"]["job"] == cli_doc["manifest"]["job"]
    assert py_doc["manifest"]["trace"] == cli_doc["manifest"]["trace"]


@pytest.mark.parametrize("mode", ["event", "cant-be-late"])
def test_timeline_from_python_is_the_clis(cli, tmp_path, mode):
    args = ["--trace", "gcp-h100-13-zones", "--regions", "us-central1,us-east4", "--checkpoint-size", "200GB",
            "--work", "24h", "--deadline", "36h", "--policy", "greedy", "-n", "5", "--threads", "1", "--mode", mode]
    checkpoint = {"checkpoint": "continuous"} if mode == "cant-be-late" else {}  # the tick engine's progress is kept
    args += [f"--{k}" for k in checkpoint] + list(checkpoint.values())
    code, _, err = cli("simulate", *args, "--timeline", tmp_path / "cli.jsonl", "--timeline-replications", "0,2",
                       "--format", "json", "-o", tmp_path / "cli.json")
    assert code == 0, err
    spotsim.simulate(trace="gcp-h100-13-zones", regions="us-central1,us-east4", checkpoint_size="200GB", work="24h",
                     deadline="36h", policy="greedy", replications=5, threads=1, mode=mode, **checkpoint,
                     timeline=tmp_path / "py.jsonl", timeline_replications="0,2")
    assert (tmp_path / "py.jsonl").read_text() == (tmp_path / "cli.jsonl").read_text()
    assert (tmp_path / "py.jsonl").read_text().count('"event":"finished"') == 2


def test_campaign_jobs_and_trials_are_refused_alike(cli, tmp_path):
    jobs = tmp_path / "jobs.csv"
    jobs.write_text("name,arrival,work,gpus\na,0h,2h,1\n")
    code, _, err = cli("campaign", "--jobs", jobs, "--trials", "3", "-r", "2")
    assert code == 2
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.campaign(jobs=str(jobs), trials=3, replications=2, progress=False)
    assert str(caught.value) == err.partition(": error: ")[2].rstrip("\n")


# campaign(): the same matrix for the zones a campaign uses, the recording's length and the savings options.
CAMPAIGN_ACCEPT_OR_REFUSE_ALIKE = [
    ({"regions": "us-east4,us-central1"}, ["--regions", "us-east4,us-central1"]),
    ({"zones": "us-east4-a"}, ["--zones", "us-east4-a"]),
    ({"regions": "mars-north1"}, ["--regions", "mars-north1"]),
    ({"zones": "mars-north1-a"}, ["--zones", "mars-north1-a"]),
    ({"regions": "us-east4", "zones": "us-east4-a"}, ["--regions", "us-east4", "--zones", "us-east4-a"]),
    ({"trial_work": "400h"}, ["--trial-work", "400h"]),
    ({"trial_work": "400h", "replay": True}, ["--trial-work", "400h", "--replay"]),
    ({"managed": True, "current_spend": "12000/month", "baseline": "vertex on-demand"},
     ["--managed-catalogue", "managed_training", "--current-spend", "12000/month", "--baseline", "vertex on-demand"]),
    ({"managed": True, "current_spend": "12000/month", "baseline": "vertex"},
     ["--managed-catalogue", "managed_training", "--current-spend", "12000/month", "--baseline", "vertex"]),
    ({"current_spend": "12k"}, ["--current-spend", "12k"]),
    ({"baseline": "on-demand"}, ["--baseline", "on-demand"]),
]


@pytest.mark.parametrize("python_options,cli_args", CAMPAIGN_ACCEPT_OR_REFUSE_ALIKE)
def test_campaign_same_input_same_verdict(cli, python_options, cli_args):
    common = ["--trials", "3", "-r", "4", "--threads", "1", "-p", "spot-only,on-demand"]
    if "--managed-catalogue" not in cli_args:
        common += ["--managed-catalogue", "none"]
    code, out, err = cli("campaign", *common, *cli_args, "--format", "json")
    options = {"trials": 3, "replications": 4, "threads": 1, "policy": "spot-only,on-demand", "managed": False,
               "progress": False, **python_options}
    try:
        result = spotsim.campaign(**options)
    except spotsim.InputError as e:
        assert code == 2, f"Python refused ({e}) what the CLI accepted"
        assert str(e) == err.partition(": error: ")[2].rstrip("\n")
        return
    assert code == 0, f"the CLI refused ({err.strip()}) what Python accepted"
    assert result.as_dict() == json.loads(out)


def test_effective_interval_counts_work_not_instance_hours():
    """A 15 min fixed interval is 0.25 h of work per segment whatever the instance count."""
    for nodes in (1, 4):
        result = spotsim.simulate(trace="us-west1", policy="on-demand", checkpoint="fixed:interval=15m", work="6h",
                                  nodes=nodes, replications=3, threads=1)
        assert result.effective_interval_hours == pytest.approx(0.25, rel=1e-9), nodes


def cli_long_options(cli, command):
    """The long option names `spotsim COMMAND --help` declares (one per line: "  --name" or "  -x [ --name ]")."""
    code, out, _ = cli(command, "--help")
    assert code == 0
    declared = re.compile(r"^  (?:-\w \[ )?--([a-z][a-z0-9-]*)")
    return {m.group(1) for m in map(declared.match, out.splitlines()) if m}


# campaign(): CLI options under another name in Python, and those that exist on one side only, with the reason.
CAMPAIGN_RENAMED = {"managed-catalogue": "managed", "quiet": "progress"}
CAMPAIGN_CLI_ONLY = {"help": "the help text", "format": "CampaignResult.to_json() / wide()",
                     "output": "the caller writes what it wants", "plugin": "spotsim.load_plugin()"}
CAMPAIGN_PYTHON_ONLY = set()


def test_campaign_takes_every_option_of_the_cli(cli):
    options = cli_long_options(cli, "campaign")
    parameters = set(inspect.signature(spotsim.campaign).parameters)
    expected = {CAMPAIGN_RENAMED.get(o, o.replace("-", "_")) for o in options if o not in CAMPAIGN_CLI_ONLY}
    assert expected - parameters == set(), f"campaign options spotsim.campaign() lacks: {sorted(expected - parameters)}"
    assert parameters - expected - CAMPAIGN_PYTHON_ONLY == set(), \
        f"spotsim.campaign() keyword arguments the CLI lacks: {sorted(parameters - expected - CAMPAIGN_PYTHON_ONLY)}"


# campaign() keyword arguments whose default is None where the schema has one, with the reason.
CAMPAIGN_NONE_MEANS_THE_CLIS = {"trials": "a job stream (jobs=) refuses trials given explicitly",
                                "trial-work": "as trials"}


def test_campaign_defaults_are_the_clis():
    """Every default of spotsim.campaign() is the CLI schema's (app/campaign/campaign_request_options.cpp)."""
    defaults = schema_defaults("campaign")
    parameters = inspect.signature(spotsim.campaign).parameters
    renamed = {python: cli for cli, python in CAMPAIGN_RENAMED.items()}
    for name, parameter in parameters.items():
        option = renamed.get(name, name.replace("_", "-"))
        if option not in defaults:
            continue
        if option in CAMPAIGN_NONE_MEANS_THE_CLIS:
            assert parameter.default is None, name
        else:
            assert same_default(parameter.default, defaults[option]), (name, parameter.default, defaults[option])
    assert set(CAMPAIGN_NONE_MEANS_THE_CLIS) <= set(defaults)


def test_campaign_schema_is_what_the_cli_reads(cli):
    """--help lists the schema's options plus the CLI's own (output, progress, plugins): nothing declared twice."""
    options = cli_long_options(cli, "campaign")
    schema = set(schema_defaults("campaign"))
    assert options - schema == set(CAMPAIGN_CLI_ONLY) | {"quiet"}
    assert schema <= options

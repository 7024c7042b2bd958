"""spotsim.simulate() against `spotsim simulate`: the same options and seed give the same numbers, bit for bit."""
import datetime
import json

import numpy as np
import pytest

import spotsim

OPTIONS = [
    # (python keyword arguments, the equivalent CLI arguments)
    ({"trace": "us-west1", "policy": "adaptive", "replications": 200, "seed": 7},
     ["--trace", "us-west1", "--policy", "adaptive", "-n", "200", "--seed", "7"]),
    ({"trace": "gcp-us-east1-b", "policy": "spot-only", "checkpoint": "fixed:interval=2h", "work": "20h",
      "nodes": 2, "checkpoint_write": "90s", "restore": "2m", "startup": "4m", "deadline": "30h",
      "replications": 150, "seed": 3},
     ["--trace", "gcp-us-east1-b", "--policy", "spot-only", "--checkpoint", "fixed:interval=2h", "--work", "20h",
      "--nodes", "2", "--checkpoint-write", "90s", "--restore", "2m", "--startup", "4m", "--deadline", "30h",
      "-n", "150", "--seed", "3"]),
    ({"trace": "aws-us-west-2-v100", "policy": "uniform-progress", "checkpoint": "hazard", "steps": 20000,
      "step_time": "2s", "trace_start": "12h", "replications": 100},
     ["--trace", "aws-us-west-2-v100", "--policy", "uniform-progress", "--checkpoint", "hazard", "--steps",
      "20000", "--step-time", "2s", "--trace-start", "12h", "-n", "100"]),
    ({"trace": "aws-us-west-2-v100", "policy": "greedy", "checkpoint": "continuous", "startup": "12m",
      "restore": "0s", "checkpoint_write": "0s", "deadline": "60h", "mode": "cant-be-late", "regret": True,
      "replications": 40},
     ["--trace", "aws-us-west-2-v100", "--policy", "greedy", "--checkpoint", "continuous", "--startup", "12m",
      "--restore", "0s", "--checkpoint-write", "0s", "--deadline", "60h", "--mode", "cant-be-late", "--regret",
      "-n", "40"]),
    ({"trace": "aws-p3-bamboo-32-node", "policy": "deadline-nodes:core=2", "checkpoint": "young-daly", "work": "12h",
      "nodes": 8, "min_nodes": 4, "reconfigure": "20s", "network_gbps": 25, "deadline": "18h", "replications": 60},
     ["--trace", "aws-p3-bamboo-32-node", "--policy", "deadline-nodes:core=2", "--checkpoint", "young-daly", "--work",
      "12h", "--nodes", "8", "--min-nodes", "4", "--reconfigure", "20s", "--network-gbps", "25", "--deadline", "18h",
      "-n", "60"]),
]


@pytest.mark.parametrize("python_options,cli_args", OPTIONS)
def test_same_numbers_as_the_cli(cli_json, python_options, cli_args):
    expected = cli_json("simulate", *cli_args, "--format", "json")
    result = spotsim.simulate(**python_options)
    assert result.manifest == expected["manifest"]
    for metric, summary in expected["summary"].items():
        row = result.summary.loc[metric]
        assert row["unit"] == summary["unit"]
        for stat in ("n", "mean", "sd", "min", "max", "p50", "p95", "p99", "ci_low", "ci_high"):
            assert row[stat] == summary[stat], (metric, stat)
    assert len(result.runs) == len(expected["runs"])
    for column in expected["runs"][0]:
        cli_values = np.array([run[column] for run in expected["runs"]])
        assert np.array_equal(result.runs[column].to_numpy(), cli_values), column
    # The texts are the CLI's own renderings.
    assert json.loads(result.to_json()) == expected


def test_run_columns_are_the_cli_csv_columns(cli):
    code, csv, err = cli("simulate", "-n", "5", "--format", "csv")
    assert code == 0, err
    result = spotsim.simulate(replications=5)
    assert list(result.runs.columns) == csv.splitlines()[0].split(",")
    assert result.to_csv() == csv
    assert list(result.summary.columns) == ["unit", "label", "n", "mean", "sd", "min", "max", "p50", "p95", "p99",
                                            "ci_low", "ci_high"]
    assert list(result.summary.index) == list(spotsim.metrics()["metric"])
    assert result.runs["replication"].tolist() == [0, 1, 2, 3, 4]


def test_table_is_the_cli_table(cli):
    code, table, err = cli("simulate", "--policy", "spot-only", "-n", "50")
    assert code == 0, err
    assert spotsim.simulate(policy="spot-only", replications=50).table == table


def test_job_file_with_overrides_matches_the_cli(cli_json, tmp_path):
    job = tmp_path / "job.json"
    job.write_text(json.dumps({"work_hours": 30, "nodes": 2, "checkpoint_write_s": 120}))
    expected = cli_json("simulate", "--job", job, "--nodes", "1", "-n", "60", "--format", "json")
    result = spotsim.simulate(job=str(job), nodes=1, replications=60)
    assert result.manifest == expected["manifest"]
    assert result.manifest["job"]["nodes"] == 1 and result.manifest["job"]["work_hours"] == 30
    assert result.summary.loc["cost_total", "mean"] == expected["summary"]["cost_total"]["mean"]


def test_thread_count_never_changes_results():
    one = spotsim.simulate(policy="greedy", replications=300, threads=1)
    two = spotsim.simulate(policy="greedy", replications=300, threads=2)
    assert one.runs.equals(two.runs)


def test_timedelta_durations_equal_strings():
    a = spotsim.simulate(work=datetime.timedelta(hours=12), checkpoint_write=datetime.timedelta(seconds=90),
                         replications=40)
    b = spotsim.simulate(work="12h", checkpoint_write="90s", replications=40)
    assert a.runs.equals(b.runs)
    assert a.manifest["job"] == b.manifest["job"]


def test_on_demand_cost_is_exact():
    # 48 h of work + 5 min start-up on one on-demand instance at the trace's price, no preemptions.
    price = spotsim.trace_zones("us-west1").loc[0, "on_demand_price_per_hour"]
    result = spotsim.simulate(policy="on-demand", checkpoint="none", replications=10)
    assert result.runs["preemptions"].eq(0).all()
    assert result.summary.loc["cost_total", "mean"] == pytest.approx(price * (48 + 5 / 60), rel=1e-9)
    assert result.summary.loc["cost_total", "sd"] == 0

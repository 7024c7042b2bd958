"""`spotsim trace reshape` end to end: the trace it writes is read back by every reader that takes a trace (trace
inspect, simulate, campaign, the Python module), with its counts regrouped and prices scaled as computed here from
the input file independently, and a refused reshape writes nothing."""
import csv
import io
import json
import math

import pytest

import spotsim
from conftest import REPO

TRACE = "gcp-h100-capacity-13-zones"
SHIPPED = REPO / "traces" / "library" / f"{TRACE}.json"
EIGHT_GPU = ["--gpus-per-instance", "8", "--instance-type", "a3-highgpu-8g", "--availability", "pooled", "--prices",
             "per-gpu"]


@pytest.fixture(scope="module")
def eight_gpu_trace(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("reshape") / "h100-8g.json"
    code, _, err = cli("trace", "reshape", TRACE, *EIGHT_GPU, "-o", out)
    assert code == 0, err
    assert "Reshaped with spotsim trace reshape: GPUs per instance 1 -> 8" in err
    return out


def test_counts_are_regrouped_and_prices_scaled_per_gpu(eight_gpu_trace):
    before = {z["name"]: z for z in json.loads(SHIPPED.read_text())["zones"]}
    after = json.loads(eight_gpu_trace.read_text())
    assert "Reshaped with spotsim trace reshape" in after["provenance"]["notes"]
    for zone in after["zones"]:
        old = before[zone["name"]]
        assert zone["gpus_per_instance"] == 8 and zone["instance_type"] == "a3-highgpu-8g"
        assert zone["on_demand_price_per_hour"] == pytest.approx(8 * old["on_demand_price_per_hour"], rel=1e-12)
        counts = old["spot"]["availability"]["counts"]
        assert zone["spot"]["availability"]["counts"] == [math.floor(c / 8 + 1e-9) for c in counts]
        assert zone["spot"]["availability"]["times_s"] == old["spot"]["availability"]["times_s"]


def test_every_reader_takes_the_reshaped_trace(cli, eight_gpu_trace):
    code, out, err = cli("trace", "inspect", eight_gpu_trace)
    assert code == 0, err
    # One 8-GPU instance on demand costs what eight 1-GPU instances of the shipped trace cost.
    args = ["--zones", "us-east4-a", "-p", "on-demand", "--work", "10h", "-n", "2", "-f", "csv", "-q"]
    code, reshaped, err = cli("simulate", "--trace", eight_gpu_trace, *args)
    assert code == 0, err
    code, eight_nodes, err = cli("simulate", "--trace", TRACE, "--nodes", "8", *args)
    assert code == 0, err
    first = next(csv.DictReader(io.StringIO(reshaped)))
    assert float(first["cost_total"]) == pytest.approx(float(next(csv.DictReader(io.StringIO(eight_nodes)))
                                                             ["cost_total"]), rel=1e-9)
    module = spotsim.simulate(str(eight_gpu_trace), "on-demand", zones=["us-east4-a"], work="10h", replications=2)
    assert module.runs["cost_total"].iloc[0] == pytest.approx(float(first["cost_total"]), rel=1e-12)
    code, out, err = cli("campaign", "--trace", eight_gpu_trace, "--jobs", "experiments/campaign/team-week.csv",
                         "-p", "spot-only", "-r", "5", "--managed-catalogue", "none")
    assert code == 0, err
    assert "capacity recorded" in out


def test_reprice_scales_and_a_refusal_writes_nothing(cli, tmp_path):
    out = tmp_path / "repriced.json"
    code, _, err = cli("trace", "reprice", TRACE, "--price-scale", "1.25", "-o", out)
    assert code == 0, err
    before = json.loads(SHIPPED.read_text())["zones"]
    after = json.loads(out.read_text())["zones"]
    assert [z["on_demand_price_per_hour"] for z in after] == \
        pytest.approx([1.25 * z["on_demand_price_per_hour"] for z in before], rel=1e-12)
    refused = tmp_path / "refused.json"
    code, _, err = cli("trace", "reshape", TRACE, "--gpus-per-instance", "8", "-o", refused)
    assert code == 2
    assert "zone 'asia-south2-b': 1 GPU -> 8 GPUs per instance" in err and "--availability" in err
    assert not refused.exists()


def test_zones_and_regions_may_be_python_lists(cli):
    """A list of names is the comma-separated text the CLI takes (it was refused with the list's repr)."""
    as_list = spotsim.simulate(TRACE, "on-demand", zones=["us-east4-a", "us-east4-b"], work="2h", replications=2)
    as_text = spotsim.simulate(TRACE, "on-demand", zones="us-east4-a,us-east4-b", work="2h", replications=2)
    assert as_list.runs["fingerprint"].tolist() == as_text.runs["fingerprint"].tolist()
    c = spotsim.campaign(TRACE, "on-demand", regions=("us-east4",), trials=2, replications=2, managed=False)
    assert c.as_dict()["policies"][0]["completed"]["mean"] == 2


def test_jobs_name_their_instance_type(cli, cli_json, tmp_path):
    """A job's instance_type must be what the trace offers (else refused, naming the job and the fix); on a trace
    reshaped to that type it runs, and the managed rows rent the hardware the job named."""
    def jobs(instance_type):
        path = tmp_path / f"jobs-{instance_type}.csv"
        path.write_text(f"name,arrival,work,gpus,instance_type\nsmall,0h,10h,1,\nbig,0h,10h,8,{instance_type}\n")
        return path

    code, _, err = cli("campaign", "--trace", "gcp-us-central1-c", "--jobs", jobs("a2-highgpu-8g"), "-r", "2")
    assert code == 2
    assert "job 'big' (column instance_type): asks for a2-highgpu-8g" in err and "offers a2-highgpu-1g" in err
    assert "spotsim trace reshape" in err
    eight = tmp_path / "a100-8g.json"
    code, _, err = cli("trace", "reshape", "gcp-us-central1-c", "--instance-type", "a2-highgpu-8g",
                       "--gpus-per-instance", "8", "--availability", "same", "--prices", "per-gpu", "-o", eight)
    assert code == 0, err
    args = ["-p", "on-demand", "-r", "20", "--format", "json"]
    on_8g = cli_json("campaign", "--trace", eight, "--jobs", jobs("a2-highgpu-8g"), *args)
    # Perfect scaling across instances, so that only the instance shape differs.
    on_1g = cli_json("campaign", "--trace", "gcp-us-central1-c", "--jobs", jobs("a2-highgpu-1g"), *args,
                     "--cross-instance-efficiency", "1")
    rows_8g = {row["policy"]: row for row in on_8g["policies"]}
    rows_1g = {row["policy"]: row for row in on_1g["policies"]}
    # DIY on demand: one 8-GPU instance costs what eight 1-GPU ones do.
    big = [j["cost"] for j in rows_8g["on-demand"]["jobs"] if j["name"] == "big"]
    assert big[0] == pytest.approx([j["cost"] for j in rows_1g["on-demand"]["jobs"] if j["name"] == "big"][0],
                                   rel=1e-9)
    # Vertex spot rents what the job named: eight 1g instances are preempted more than one 8g instance.
    spot = "vertex-ai spot a2-highgpu-1g/a2-highgpu-8g"
    assert rows_1g[spot]["preemptions"]["mean"] > rows_8g[spot]["preemptions"]["mean"]


def test_a_trace_of_two_shapes_runs_each_job_on_its_own(cli, cli_json, tmp_path):
    """--append-as keeps the 1-GPU zones and adds the 8-GPU ones: 8-GPU jobs then run exactly as on the 8-GPU trace
    alone (same seeds, same zone order), and 1-GPU jobs exactly as on the shipped one. (With --reclaim random the
    draws that pick whom an excess reclaim takes are keyed by the campaign's zone number, which differs.)"""
    both, eight = tmp_path / "both.json", tmp_path / "eight.json"
    for out, extra in ((both, ["--append-as", "-8g"]), (eight, [])):
        code, _, err = cli("trace", "reshape", TRACE, *EIGHT_GPU, *extra, "-o", out)
        assert code == 0, err
    assert len(json.loads(both.read_text())["zones"]) == 26

    def campaign(trace, gpus):
        path = tmp_path / f"jobs-{gpus}.csv"
        path.write_text("name,arrival,work,gpus\n" + "".join(f"j{k},{3 * k}h,6h,{gpus}\n" for k in range(4)))
        doc = cli_json("campaign", "--trace", trace, "--jobs", path, "-p", "spot-only", "-r", "30",
                       "--reclaim", "newest-first", "--managed-catalogue", "none", "--format", "json")
        row = doc["policies"][0]
        return row["cost_total"]["mean"], row["makespan_hours"]["mean"], [j["cost"] for j in row["jobs"]]

    assert campaign(both, 8) == campaign(eight, 8)
    assert campaign(both, 1) == campaign(TRACE, 1)

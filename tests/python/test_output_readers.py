"""Every output a command writes, fed to every reader (docs/testing.md#cross-feature-matrices).

The outputs are made here by the real commands, never written by hand: simulate's table, JSON and CSV (plain,
with --regret, with --timeline, elastic, multi-region with a checkpoint to move), sweep directories with and
without regret, shards and their merge, campaign JSON and advise JSON. Each is given to each reader: `spotsim
report` (result and --timeline), `spotsim sweep merge`, `spotsim regress` (a baseline made from the same spec) and
the Python readers (json, pandas). A reader either accepts an output (exit 0, and what it shows matches the
output) or refuses it with a one-line error naming the file (exit 2): never a crash, never silent garbage.
"""
import io
import json
import pathlib

import pandas as pd
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SIM_BASE = ["-n", "30", "--threads", "1", "--quiet"]
SIMULATE_VARIANTS = {
    "plain": ["--trace", "us-west1", "--work", "12h", "--deadline", "18h"],
    "regret": ["--trace", "aws-us-west-2-v100", "--work", "12h", "--deadline", "18h", "--regret",
               "--policy", "greedy"],
    "elastic": ["--trace", "aws-p3-bamboo-32-node", "--nodes", "4", "--min-nodes", "2", "--work", "6h",
                "--deadline", "12h"],
    "multi-region": ["--trace", "gcp-h100-13-zones", "--regions", "us-central1,us-east4", "--checkpoint-size", "200GB",
                     "--policy", "cost-aware", "--work", "12h", "--deadline", "18h"],
    "cant-be-late": ["--trace", "aws-us-west-2-v100", "--mode", "cant-be-late", "--checkpoint", "continuous",
                     "--startup", "12m", "--restore", "0s", "--checkpoint-write", "0s", "--work", "12h",
                     "--deadline", "18h", "--policy", "uniform-progress"],
}


def spec(regret, policies=("greedy", "on-demand")):
    return {"format": "spotsim-experiment", "version": 1, "name": "readers matrix", "seed": 11,
            "replications": 20, "traces": ["aws-us-west-2-v100"], "policies": list(policies),
            "checkpoints": ["young-daly"], "regret": regret,
            "job": {"name": "j", "work_hours": 12, "deadline_hours": 18}}


@pytest.fixture(scope="module")
def outputs(cli, tmp_path_factory):
    """{name: path} of every output, made once by the real commands."""
    d = tmp_path_factory.mktemp("outputs")
    made = {}

    def run(*args):
        code, out, err = cli(*args)
        assert code == 0, (args, err)
        return out

    for variant, args in SIMULATE_VARIANTS.items():
        for fmt in ("json", "csv"):
            path = d / f"simulate-{variant}.{fmt}"
            run("simulate", *args, *SIM_BASE, "-o", path)
            made[f"simulate {variant} {fmt}"] = path
        table = d / f"simulate-{variant}.txt"
        table.write_text(run("simulate", *args, *SIM_BASE))
        made[f"simulate {variant} table"] = table
        timeline = d / f"timeline-{variant}.jsonl"  # every engine writes one (the tick engine too)
        run("simulate", *args, *SIM_BASE, "--timeline", timeline, "-o", d / f"with-timeline-{variant}.json")
        made[f"timeline {variant}"] = timeline
    for regret in (False, True):
        s = d / f"spec-{regret}.json"
        s.write_text(json.dumps(spec(regret)))
        name = f"sweep {'regret' if regret else 'plain'}"
        run("sweep", s, "--out", d / name.replace(" ", "-"), "--quiet")
        made[name] = d / name.replace(" ", "-")
        made[f"spec {regret}"] = s
        for i in (1, 2):
            shard = d / f"shard-{regret}-{i}"
            run("sweep", s, "--out", shard, "--shard", f"{i}/2", "--quiet")
            made[f"shard {regret} {i}"] = shard
        merged = d / f"merged-{regret}"
        run("sweep", "merge", made[f"shard {regret} 1"], made[f"shard {regret} 2"], "--out", merged)
        made[f"merged {'regret' if regret else 'plain'}"] = merged
    campaign = d / "campaign.json"
    run("campaign", "--trials", "3", "--trial-work", "2h:4h", "-r", "5", "--threads", "1", "--quiet",
        "--managed-catalogue", "none", "-o", campaign)
    made["campaign json"] = campaign
    stream = d / "stream.json"
    run("campaign", "--trace", "gcp-us-central1-c", "--jobs", REPO / "experiments/campaign/platform-month.csv",
        "-p", "spot-only,adaptive", "--baseline", "vertex on-demand 1g", "--current-spend", "12000/month",
        "-r", "5", "--threads", "1", "--quiet", "-o", stream)
    made["campaign stream json"] = stream
    advise = d / "advise.json"
    run("advise", "--steps", "100000", "--step-time", "300ms", "--measured-gpu", "A100-40GB", "--deadline", "14h",
        "--gpus", "1", "--cloud", "gcp", "--gpu", "A100", "-n", "10", "--threads", "1", "--quiet", "--managed-catalogue", "none", "-f", "json", "-o", advise)
    made["advise json"] = advise
    return made


def refused_cleanly(code, err, path):
    assert code == 2, err
    message = err.strip().splitlines()
    assert len(message) == 1 and ": error: " in message[0], err
    assert pathlib.Path(path).name in message[0] or str(path) in message[0], err


REPORT_ACCEPTS = [f"simulate {v} json" for v in SIMULATE_VARIANTS] + [
    "sweep plain", "sweep regret", "merged plain", "merged regret", "campaign json", "campaign stream json"]
REPORT_REFUSES = [f"simulate {v} {f}" for v in SIMULATE_VARIANTS for f in ("csv", "table")] + ["advise json"]


@pytest.mark.parametrize("name", REPORT_ACCEPTS)
def test_report_reads(cli, outputs, tmp_path, name):
    html = tmp_path / "r.html"
    code, _, err = cli("report", outputs[name], "-o", html)
    assert code == 0, err
    page = html.read_text()
    assert "<svg" in page
    if "regret" in name and not name.startswith("simulate cant"):
        assert "Regret to the offline optimum" in page
    if name in ("sweep plain", "merged plain"):
        assert "Regret to the offline optimum" not in page


def test_report_shows_a_job_streams_sizes_and_savings_as_written(cli, outputs, tmp_path):
    """The campaign's by-size rows and its savings against today's spend reach the page, number for number."""
    doc = json.loads(pathlib.Path(outputs["campaign stream json"]).read_text())
    html = tmp_path / "s.html"
    code, _, err = cli("report", outputs["campaign stream json"], "-o", html)
    assert code == 0, err
    page = html.read_text()
    sizes = page.split('<section id="job-sizes">')[1].split("</section>")[0]
    rows = [r for r in doc["policies"] if r.get("by_job_size")]
    assert sizes.count("<tr>") + sizes.count('<tr class="missed">') == sum(len(r["by_job_size"]) for r in rows) + 1
    for row in rows:
        for g in row["by_job_size"]:
            assert "{:.2f}".format(g["turnaround_hours"]["mean"]) in sizes
    savings = page.split('<section id="savings">')[1].split("</section>")[0]
    assert "$12000/month" in savings and doc["savings"]["baseline"] in savings
    for p in doc["savings"]["policies"]:
        assert "${:.0f}/month".format(p["net_saving_per_month"]) in savings


def test_report_without_a_job_stream_has_no_size_or_savings_section(cli, outputs, tmp_path):
    html = tmp_path / "t.html"
    code, _, err = cli("report", outputs["campaign json"], "-o", html)
    assert code == 0, err
    assert 'id="job-sizes"' not in html.read_text() and 'id="savings"' not in html.read_text()


@pytest.mark.parametrize("name", REPORT_REFUSES)
def test_report_refuses_cleanly(cli, outputs, tmp_path, name):
    code, _, err = cli("report", outputs[name], "-o", tmp_path / "r.html")
    refused_cleanly(code, err, outputs[name])
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("variant", list(SIMULATE_VARIANTS))
def test_report_draws_every_timeline(cli, outputs, tmp_path, variant):
    html = tmp_path / "t.html"
    code, _, err = cli("report", outputs[f"simulate {variant} json"], "--timeline", outputs[f"timeline {variant}"],
                       "-o", html)
    assert code == 0, err
    assert 'class="chart timeline"' in html.read_text()


@pytest.mark.parametrize("regret", [False, True])
def test_sweep_merge_equals_the_unsharded_sweep(outputs, regret):
    whole = outputs[f"sweep {'regret' if regret else 'plain'}"]
    merged = outputs[f"merged {'regret' if regret else 'plain'}"]
    assert (whole / "runs.csv").read_bytes() == (merged / "runs.csv").read_bytes()
    assert json.loads((whole / "summary.json").read_text())["configurations"] == \
        json.loads((merged / "summary.json").read_text())["configurations"]


@pytest.mark.parametrize("name", ["simulate plain json", "campaign json", "advise json", "sweep plain"])
def test_sweep_merge_refuses_what_is_not_a_shard(cli, outputs, tmp_path, name):
    code, _, err = cli("sweep", "merge", outputs[name], outputs["shard False 2"], "--out", tmp_path / "m")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and ": error: " in err
    assert not (tmp_path / "m" / "runs.csv").exists()


@pytest.mark.parametrize("regret", [False, True])
def test_regress_reads_a_baseline_of_the_same_spec(cli, outputs, tmp_path, regret):
    baseline = tmp_path / "b.json"
    code, _, err = cli("regress", baseline, "--update", "--from-spec", outputs[f"spec {regret}"], "--threads", "1")
    assert code == 0, err
    code, out, err = cli("regress", baseline, "--threads", "1", "--format", "json")
    assert code == 0, (out, err)
    verdict = json.loads(out)
    assert "regret" in json.dumps(verdict) if regret else True


@pytest.mark.parametrize("name", ["simulate plain json", "campaign json", "advise json"])
def test_regress_refuses_what_is_not_a_baseline(cli, outputs, name):
    code, _, err = cli("regress", outputs[name], "--threads", "1")
    refused_cleanly(code, err, outputs[name])


@pytest.mark.parametrize("name", [n for n in (f"simulate {v} json" for v in SIMULATE_VARIANTS)] +
                         ["campaign json", "advise json"])
def test_python_reads_every_json(outputs, name):
    doc = json.loads(pathlib.Path(outputs[name]).read_text())
    assert isinstance(doc, dict) and doc


@pytest.mark.parametrize("variant", list(SIMULATE_VARIANTS))
def test_csv_and_json_of_one_run_agree(outputs, variant):
    runs = pd.read_csv(outputs[f"simulate {variant} csv"], comment="#")
    doc = json.loads(outputs[f"simulate {variant} json"].read_text())
    assert len(runs) == doc["summary"]["cost_total"]["n"]
    assert runs["cost_total"].mean() == pytest.approx(doc["summary"]["cost_total"]["mean"], rel=1e-9)
    if variant == "regret":
        assert runs["regret"].notna().all() and (runs["regret"] >= -1e-9).all()


@pytest.mark.parametrize("name", ["sweep plain", "sweep regret", "merged plain", "merged regret"])
def test_python_reads_every_sweep_directory(outputs, name):
    d = outputs[name]
    runs = pd.read_csv(d / "runs.csv", comment="#")
    summary = json.loads((d / "summary.json").read_text())
    assert len(summary["configurations"]) == 2
    assert len(runs) == 2 * 20
    regret_column = runs["regret"] if "regret" in runs else pd.Series(dtype=float)
    assert regret_column.notna().any() == ("regret" in name)


def test_trace_convert_only_zone_output_is_read_by_every_trace_reader(cli, tmp_path):
    """`trace convert --only-zone` of a spotsim trace keeps that zone alone (it used to keep every zone), and what it
    writes is read by `trace inspect`, `simulate` and the Python catalogue as a one-zone trace."""
    one = tmp_path / "one.json"
    code, _, err = cli("trace", "convert", "traces/library/gcp-h100-13-zones.json", "--only-zone", "us-east4-a",
                       "-o", one)
    assert code == 0, err
    doc = json.loads(one.read_text())
    assert [z["name"] for z in doc["zones"]] == ["us-east4-a"]
    code, out, err = cli("trace", "inspect", one, "-f", "json")
    assert code == 0, err
    assert [r["zones"] for r in json.loads(out)["regions"]] == [["us-east4-a"]]
    code, out, err = cli("simulate", "--trace", one, "-n", "5", "--threads", "1", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["manifest"]["trace"]["zones"] == 1
    import spotsim
    assert spotsim.trace_zones(str(one))["zone"].tolist() == ["us-east4-a"]
    code, _, err = cli("trace", "convert", "traces/library/gcp-h100-13-zones.json", "--only-zone", "nowhere",
                       "-o", tmp_path / "none.json")
    refused_cleanly(code, err, "gcp-h100-13-zones.json")
    assert "nowhere" in err and not (tmp_path / "none.json").exists()

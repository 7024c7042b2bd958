"""spotsim.campaign() against `spotsim campaign` and spotsim.simulate(): the same options and seed give the CLI's
numbers exactly, and a campaign of one job is simulate() of that job, run for run."""
import datetime
import json

import numpy as np
import pandas as pd
import pytest

import spotsim

TRACE = "gcp-h100-capacity-13-zones"
FOUR_JOBS = [{"name": f"job-{k}", "arrival": f"{k}h", "work": "3h", "gpus": 2, "priority": k} for k in range(4)]


def write_jobs(path, rows):
    header = list(rows[0])
    path.write_text(",".join(header) + "\n" + "".join(",".join(str(r[c]) for c in header) + "\n" for r in rows))
    return path


def test_one_job_campaign_is_simulate_of_that_job():
    durations = {"startup": "4m", "checkpoint_write": "90s", "restore": "2m"}
    c = spotsim.campaign(TRACE, "spot-only", jobs=[{"name": "solo", "work": "12h"}], replications=60, seed=5,
                         managed=False, **durations)
    s = spotsim.simulate(TRACE, "spot-only", work="12h", nodes=1, replications=60, seed=5, **durations)
    job = c.jobs
    assert (job["name"] == "solo").all() and job["replication"].tolist() == list(range(60))
    for column in ("cost_total", "cost_spot", "completion_hours", "preemptions", "fingerprint", "events"):
        assert np.array_equal(job[column].to_numpy(), s.runs[column].to_numpy()), column
    assert np.array_equal(c.runs["cost_total"].to_numpy(), s.runs["cost_total"].to_numpy())
    assert np.array_equal(c.runs["makespan_hours"].to_numpy(), s.runs["completion_hours"].to_numpy())
    assert np.array_equal(job["finish_hours"].to_numpy(), s.runs["completion_hours"].to_numpy())


def test_same_json_as_the_cli_for_a_job_file(cli_json, tmp_path):
    path = write_jobs(tmp_path / "jobs.csv", FOUR_JOBS)
    expected = cli_json("campaign", "--trace", TRACE, "--jobs", path, "-p", "spot-only,greedy", "--schedule",
                        "priority", "--deadline", "1d", "-r", "50", "--managed-catalogue", "none", "--format", "json")
    result = spotsim.campaign(TRACE, ["spot-only", "greedy"], jobs=str(path), schedule="priority", deadline="1d",
                              replications=50, managed=False)
    assert result.as_dict() == expected
    assert result.policies == ["spot-only", "greedy"]
    for row in expected["policies"]:
        for metric in ("makespan_hours", "cost_total", "cost_idle", "capacity_utilisation"):
            got = result.summary.loc[(row["policy"], metric)]
            assert [got["mean"], got["ci_low"], got["ci_high"]] == [row[metric][k] for k in ("mean", "ci_low", "ci_high")]
        assert result.summary.loc[(row["policy"], "deadline_met"), "mean"] == pytest.approx(row["p_deadline_met"])
        hourly = result.hourly[result.hourly["policy"] == row["policy"]]
        assert hourly["held_by_hour"].tolist() == row["held_by_hour"]
        assert hourly["capacity_by_hour"].tolist() == row["capacity_by_hour"]
        shares = result.job_summary[result.job_summary["policy"] == row["policy"]]
        assert shares["completed_share"].tolist() == [j["completed_share"] for j in row["jobs"]]
    # The same jobs as rows (a list of dicts or a DataFrame) give the same campaign.
    for rows in (FOUR_JOBS, pd.DataFrame(FOUR_JOBS)):
        again = spotsim.campaign(TRACE, ["spot-only", "greedy"], jobs=rows, schedule="priority", deadline="1d",
                                 replications=50, managed=False)
        assert again.runs.equals(result.runs) and again.jobs.equals(result.jobs)


def test_same_json_as_the_cli_for_trials(cli_json):
    expected = cli_json("campaign", "--trace", TRACE, "--trials", "6", "--trial-work", "2h:6h", "--gpus", "2",
                        "--halving", "3:1/9", "--budget", "150", "--reclaim", "newest-first", "--startup", "10m",
                        "-p", "greedy", "-r", "40", "-s", "9", "--managed-catalogue", "none", "--format", "json")
    result = spotsim.campaign(TRACE, "greedy", trials=6, trial_work=("2h", "6h"), gpus=2, halving="3:1/9",
                              budget=150, reclaim="newest-first", startup=datetime.timedelta(minutes=10),
                              replications=40, seed=9, managed="none")
    assert result.as_dict() == expected
    runs = result.runs
    assert len(runs) == 40 and (runs["completed"] + runs["stopped_early"] + runs["failed"] == 6).all()
    assert set(result.jobs["status"]) <= {"completed", "stopped", "failed"}


def test_managed_rows_as_the_cli(cli_json, tmp_path):
    path = write_jobs(tmp_path / "jobs.csv", FOUR_JOBS[:2])
    expected = cli_json("campaign", "--trace", TRACE, "--jobs", path, "-p", "spot-only", "-r", "20",
                        "--format", "json")
    result = spotsim.campaign(TRACE, "spot-only", jobs=str(path), managed=True, replications=20)
    assert result.as_dict() == expected
    assert len(result.policies) > 1 and result.managed == result.policies[1:]
    assert (result.jobs["policy"] == result.policies[-1]).sum() == 2 * 20


def test_thread_count_never_changes_results():
    one = spotsim.campaign(TRACE, ["spot-only", "on-demand"], trials=8, replications=30, threads=1)
    two = spotsim.campaign(TRACE, ["spot-only", "on-demand"], trials=8, replications=30, threads=2)
    assert one.runs.equals(two.runs) and one.jobs.equals(two.jobs)
    assert one.to_json() == two.to_json()


def test_a_bad_job_row_names_its_column(cli, tmp_path):
    with pytest.raises(spotsim.InputError, match=r"^jobs:3: work: expected a duration such as 30m, 6h or 1.5d, "
                                                 r"got '3 hours'$"):
        spotsim.campaign(jobs=[{"name": "a", "work": "3h"}, {"name": "b", "work": "3 hours"}], replications=2)
    with pytest.raises(spotsim.InputError, match="wrok"):
        spotsim.campaign(jobs=[{"name": "a", "wrok": "3h"}], replications=2)
    with pytest.raises(spotsim.InputError, match=r"^jobs:2: name: expected a value without commas"):
        spotsim.campaign(jobs=[{"name": "a,b", "work": "3h"}], replications=2)
    # A file gives the CLI's message, word for word.
    path = write_jobs(tmp_path / "bad.csv", [{"name": "a", "work": "3h", "gpus": "many"}])
    code, _, err = cli("campaign", "--trace", TRACE, "--jobs", path, "-r", "2")
    assert code == 2
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.campaign(jobs=str(path), replications=2)
    assert str(caught.value) == err.partition(": error: ")[2].rstrip("\n") and "gpus" in str(caught.value)


@pytest.mark.parametrize("python_options,cli_args", [
    ({"schedule": "lifo"}, ["--schedule", "lifo"]),
    ({"halving": "3"}, ["--halving", "3"]),
    ({"capacity": "infinite"}, ["--capacity", "infinite"]),
    ({"trial_work": "6h:2h"}, ["--trial-work", "6h:2h"]),
    ({"deadline": "soon"}, ["--deadline", "soon"]),
    ({"replications": 0}, ["-r", "0"]),
    ({"policy": "cheapest"}, ["-p", "cheapest"]),
])
def test_errors_carry_the_cli_message(cli, python_options, cli_args):
    replications = [] if "-r" in cli_args else ["-r", "2"]
    code, _, err = cli("campaign", "--trace", TRACE, "--managed-catalogue", "none", *replications, *cli_args)
    assert code == 2, err
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.campaign(**{"replications": 2, **python_options})
    assert str(caught.value) == err.partition(": error: ")[2].rstrip("\n")


def test_python_policy_objects_are_refused():
    class Always:
        def decide(self, observation):
            return spotsim.SelectionDecision()

    with pytest.raises(spotsim.InputError, match="Python policy objects"):
        spotsim.campaign(policy=[Always()], replications=2)


def test_jobs_and_trials_together_are_refused():
    with pytest.raises(spotsim.InputError, match="not both"):
        spotsim.campaign(jobs=FOUR_JOBS, trials=3, replications=2)


def test_by_job_size_and_savings_as_the_cli(cli_json, tmp_path):
    """A job stream's turnaround and slowdown by job size, and the savings against a baseline at a current spend:
    the CLI's JSON, and the DataFrames agree with it and with the jobs' own rows."""
    rows = [{"name": f"j{k}", "arrival": f"{3 * k}h", "work": f"{2 + k}h", "gpus": 1 if k % 2 else 8,
             "deadline": "1d"} for k in range(4)]
    path = write_jobs(tmp_path / "jobs.csv", rows)
    expected = cli_json("campaign", "--trace", TRACE, "--jobs", path, "-p", "spot-only,on-demand", "-r", "30",
                        "--baseline", "vertex on-demand", "--current-spend", "12000/month", "--engineering-cost",
                        "2000", "--format", "json")
    result = spotsim.campaign(TRACE, ["spot-only", "on-demand"], jobs=rows, replications=30,
                              baseline="vertex on-demand", current_spend="12000/month", engineering_cost=2000)
    assert result.as_dict() == expected
    assert result.savings == expected["savings"] and result.savings["baseline"].startswith("vertex-ai on-demand")
    assert "savings" not in result.settings
    spot = expected["policies"][0]
    assert [(g["gpus"], g["jobs"]) for g in spot["by_job_size"]] == [(1, 2), (8, 2)]
    sizes = result.by_job_size[result.by_job_size["policy"] == "spot-only"]
    assert sizes["size"].tolist() == [1, 8] and set(sizes["unit"]) == {"gpus"}
    assert sizes["turnaround_hours_mean"].tolist() == [g["turnaround_hours"]["mean"] for g in spot["by_job_size"]]
    assert sizes["cost_per_job_ci_high"].tolist() == [g["cost_per_job"]["ci_high"] for g in spot["by_job_size"]]
    # Turnaround = finish - arrival and slowdown = turnaround / work, job by job.
    jobs = result.jobs[result.jobs["policy"] == "spot-only"]
    arrival = jobs["job"].map(lambda j: 3.0 * j)
    assert np.allclose(jobs["turnaround_hours"], jobs["finish_hours"] - arrival)
    assert np.allclose(jobs["slowdown"], jobs["turnaround_hours"] / jobs["job"].map(lambda j: 2.0 + j))
    eight = jobs[jobs["job"].isin([0, 2])]
    assert sizes.iloc[1]["turnaround_hours_mean"] == pytest.approx(eight["turnaround_hours"].mean())
    assert sizes.iloc[1]["cost_per_job_mean"] == pytest.approx(eight["cost_total"].mean())
    summary = result.job_summary[result.job_summary["policy"] == "spot-only"]
    assert summary["slowdown_mean"].tolist() == [j["slowdown"] for j in spot["jobs"]]
    # The saving is s * 12000 - 2000 with s = 1 - D / B.
    baseline = next(r for r in expected["policies"] if r["policy"] == result.savings["baseline"])
    saving = result.savings["policies"][0]
    s = 1 - spot["cost_total"]["mean"] / baseline["cost_total"]["mean"]
    assert saving["policy"] == "spot-only" and saving["saving_fraction"] == pytest.approx(s)
    assert saving["net_saving_per_month"] == pytest.approx(12000 * s - 2000)
    # Trials keep the makespan alone.
    trials = spotsim.campaign(TRACE, "spot-only", trials=3, replications=5, managed=False)
    assert trials.by_job_size.empty and "by_job_size" not in trials.as_dict()["policies"][0]


def test_a_campaign_longer_than_the_recording_needs_replay(cli, tmp_path):
    """Refused as the CLI refuses it, word for word, unless replay=True (--replay)."""
    rows = [{"name": "early", "arrival": "0h", "work": "2h"}, {"name": "late", "arrival": "20d", "work": "10h"}]
    path = write_jobs(tmp_path / "long.csv", rows)
    code, _, err = cli("campaign", "--trace", TRACE, "--jobs", path, "-p", "spot-only", "-r", "2",
                       "--managed-catalogue", "none")
    assert code == 2
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.campaign(TRACE, "spot-only", jobs=str(path), replications=2, managed=False)
    assert str(caught.value) == err.partition(": error: ")[2].rstrip("\n")
    assert "'late'" in str(caught.value) and "490.0 h" in str(caught.value) and "--replay" in str(caught.value)
    replayed = spotsim.campaign(TRACE, "spot-only", jobs=rows, replications=2, managed=False, replay=True)
    assert (replayed.runs["completed"] == 2).all()


def test_break_even_matches_the_cli(cli_json):
    """engineering_cost gives the CLI's --engineering-cost break-even, value for value."""
    args = dict(trials=4, gpus=8, replications=20, seed=2, progress=False)
    result = spotsim.campaign(TRACE, ["spot-only", "on-demand"], managed=True, engineering_cost="8000/month", **args)
    expected = cli_json("campaign", "--trace", TRACE, "--trials", "4", "--gpus", "8", "-r", "20", "--seed", "2",
                        "-p", "spot-only,on-demand", "--engineering-cost", "8000/month", "--format", "json")
    assert result.break_even == expected["break_even"]
    assert result.as_dict() == expected
    assert [p["policy"] for p in result.break_even["policies"]] == ["spot-only", "on-demand"]
    with pytest.raises(spotsim.InputError, match="engineering-cost"):
        spotsim.campaign(TRACE, "spot-only", engineering_cost="8000/year", **args)
    with pytest.raises(spotsim.InputError, match="no managed offer"):
        spotsim.campaign(TRACE, "spot-only", engineering_cost=8000, managed=False, **args)


def test_cant_be_late_mode_as_the_cli(cli_json):
    """mode="cant-be-late": every job in the tick engine, the CLI's JSON (with its mode and tick) value for value."""
    expected = cli_json("campaign", "--trace", "aws-us-west-2-v100", "--trials", "4", "--trial-work", "6h:12h",
                        "--mode", "cant-be-late", "--checkpoint", "continuous", "--startup", "12m", "-p",
                        "greedy,uniform-progress", "--deadline", "1d", "-r", "30", "--managed-catalogue", "none",
                        "--format", "json")
    result = spotsim.campaign("aws-us-west-2-v100", ["greedy", "uniform-progress"], "continuous", mode="cant-be-late",
                              trials=4, trial_work="6h:12h", startup="12m", deadline="1d", replications=30,
                              managed=False)
    assert result.as_dict() == expected
    assert expected["mode"] == "cant-be-late" and expected["tick_hours"] == pytest.approx(1 / 6)
    with pytest.raises(spotsim.InputError, match="--checkpoint continuous"):
        spotsim.campaign("aws-us-west-2-v100", "greedy", mode="cant-be-late", trials=2, replications=2, managed=False)


def test_elastic_jobs_on_some_zones_as_the_cli(cli_json, tmp_path):
    """Jobs with min_nodes run in the elastic engine under multi-node policies, on the zones chosen: the CLI's JSON."""
    rows = [{"name": "big", "work": "24h", "nodes": 8, "min_nodes": 4},
            {"name": "small", "arrival": "2h", "work": "12h", "nodes": 4, "min_nodes": 2}]
    path = write_jobs(tmp_path / "jobs.csv", [{**{"arrival": "0h"}, **r} for r in rows])
    expected = cli_json("campaign", "--trace", TRACE, "--zones", "us-east4-a", "--jobs", path,
                        "-p", "spot-nodes,deadline-nodes", "-r", "30", "--managed-catalogue", "none",
                        "--format", "json")
    result = spotsim.campaign(TRACE, ["spot-nodes", "deadline-nodes"], zones="us-east4-a", jobs=rows,
                              replications=30, managed=False)
    assert result.as_dict() == expected
    assert (result.jobs["status"] == "completed").all()
    # Across regions the jobs move between zones (docs/elastic.md#zones): the same as the CLI too.
    expected = cli_json("campaign", "--trace", TRACE, "--regions", "us-east4,us-central1", "--jobs", path,
                        "-p", "deadline-nodes", "-r", "10", "--managed-catalogue", "none", "--format", "json")
    result = spotsim.campaign(TRACE, "deadline-nodes", regions="us-east4,us-central1", jobs=rows, replications=10,
                              managed=False)
    assert result.as_dict() == expected


@pytest.mark.parametrize("args", [
    ["--trace", "aws-us-west-2-v100", "--trials", "3", "--mode", "cant-be-late", "--checkpoint", "continuous",
     "-p", "greedy"],
    ["--trace", TRACE, "--zones", "us-east4-a", "--jobs", "experiments/campaign/elastic-jobs.csv", "-p", "spot-nodes"],
])
def test_the_report_reads_what_campaigns_in_either_new_mode_write(cli, tmp_path, args):
    """spotsim report draws the JSON of a Can't Be Late campaign (mode, tick_hours) and of elastic jobs."""
    out = tmp_path / "c.json"
    code, _, err = cli("campaign", *args, "-r", "5", "--managed-catalogue", "none", "-f", "json", "-o", out)
    assert code == 0, err
    code, _, err = cli("report", out, "-o", tmp_path / "c.html")
    assert code == 0, err
    assert "spotsim-campaign" in out.read_text() and (tmp_path / "c.html").stat().st_size > 0


def test_a_trace_without_counts_reports_no_capacity_used(cli):
    """A lifetime-model trace bounds nothing: the table says so and prints no "0.0%" of capacity used."""
    code, out, err = cli("campaign", "--trace", "gcp-us-central1-c", "--trials", "2", "-r", "2", "--quiet",
                         "--managed-catalogue", "none")
    assert code == 0, err
    assert "capacity unbounded: the trace records no counts" in out
    rows = [line for line in out.splitlines() if line.startswith(("spot-only", "greedy", "on-demand"))]
    assert rows and all(line.rstrip().endswith(" -") for line in rows), out
    code, out, err = cli("campaign", "--trace", TRACE, "--trials", "2", "-r", "2", "--quiet", "--managed-catalogue",
                         "none")
    assert code == 0, err
    assert "capacity recorded" in out and "%" in out.splitlines()[4]


@pytest.mark.parametrize("trace,capacity,bounded", [("gcp-us-central1-c", "recorded", False),
                                                    (TRACE, "recorded", True), (TRACE, "unbounded", False)])
def test_the_json_says_the_capacity_the_table_says(cli_json, trace, capacity, bounded):
    """The JSON's "capacity" is what the campaign ran under, by the table's rule: "recorded" on a trace without
    counts was unbounded, and no row (nor a managed one) reports a share of capacity used there."""
    doc = cli_json("campaign", "--trace", trace, "--capacity", capacity, "--trials", "2", "-r", "2", "--format", "json")
    assert doc["capacity"] == ("recorded" if bounded else "unbounded")
    note = "unbounded: the trace records no counts" if trace != TRACE else capacity
    assert doc["capacity_note"] == note
    for row in doc["policies"]:
        used = row["capacity_utilisation"]
        assert (used is not None) == (bounded and not row["managed"]), row["policy"]
    python = spotsim.campaign(trace, trials=2, replications=2, capacity=capacity).as_dict()
    assert python["capacity"] == doc["capacity"] and python["capacity_note"] == doc["capacity_note"]
    assert [r["capacity_utilisation"] is None for r in python["policies"]] == \
        [r["capacity_utilisation"] is None for r in doc["policies"]]


def test_managed_rows_rent_the_shape_that_fits_each_job(cli_json, tmp_path):
    """One row per service and mode: a 1-GPU job on a2-highgpu-1g, an 8-GPU job on one a2-highgpu-8g, and a 2-GPU
    job (the catalogue has no 2-GPU machine) on two 1g instances, not on an 8g that bills six idle GPUs."""
    jobs = write_jobs(tmp_path / "jobs.csv", [{"name": f"g{g}", "arrival": "0h", "work": "10h", "gpus": g}
                                              for g in (1, 2, 8)])
    doc = cli_json("campaign", "--trace", "gcp-us-central1-c", "--jobs", jobs, "-p", "on-demand", "-r", "2",
                   "--format", "json")
    rows = {row["policy"]: row for row in doc["policies"]}
    assert "vertex-ai on-demand a2-highgpu-8g" not in rows and "vertex-ai on-demand a2-highgpu-1g" not in rows
    row = rows["vertex-ai on-demand a2-highgpu-1g/a2-highgpu-8g"]
    cost = {job["name"]: job["cost"] for job in row["jobs"]}
    hours = 10 + 5 / 60  # work and the billed 5-minute start-up
    assert cost["g1"] == pytest.approx(4.408062 * hours, rel=1e-3)
    # Two instances: work / 0.9 (--cross-instance-efficiency's default) on top of the billed start-up.
    assert cost["g2"] == pytest.approx(2 * 4.408062 * (10 / 0.9 + 5 / 60), rel=1e-3)
    assert cost["g8"] == pytest.approx(35.26 * hours, rel=1e-3)
    # A service with one shape keeps its one-shape row (and label).
    assert rows["sagemaker on-demand ml.p4d.24xlarge"]["jobs"][0]["cost"] == pytest.approx(37.688 * 10, rel=0.01)


def test_a_job_spanning_instances_needs_more_work(cli_json, tmp_path):
    """--cross-instance-efficiency (advise's rule, default 0.9): an 8-GPU job on eight 1-GPU instances needs
    work / 0.9 there; a 1-GPU job, and the managed row's one 8-GPU instance, are unchanged; elastic jobs keep their
    own model."""
    jobs = write_jobs(tmp_path / "jobs.csv", [{"name": "one", "arrival": "0h", "work": "9h", "gpus": 1},
                                              {"name": "eight", "arrival": "0h", "work": "9h", "gpus": 8}])

    def costs(*extra):
        doc = cli_json("campaign", "--trace", "gcp-us-central1-c", "--jobs", jobs, "-p", "on-demand", "-r", "2",
                       "--format", "json", *extra)
        return doc["cross_instance_efficiency"], {row["policy"]: {j["name"]: j["cost"] for j in row["jobs"]}
                                                  for row in doc["policies"]}

    default, spread = costs()
    perfect, together = costs("--cross-instance-efficiency", "1")
    assert (default, perfect) == (0.9, 1.0)
    startup = 5 / 60
    price = together["on-demand"]["one"] / (9 + startup)
    assert spread["on-demand"]["one"] == together["on-demand"]["one"]
    assert together["on-demand"]["eight"] == pytest.approx(8 * price * (9 + startup), rel=1e-6)
    assert spread["on-demand"]["eight"] == pytest.approx(8 * price * (9 / 0.9 + startup), rel=1e-6)
    vertex = "vertex-ai on-demand a2-highgpu-1g/a2-highgpu-8g"
    assert spread[vertex]["eight"] == together[vertex]["eight"], "one 8-GPU instance: no network between GPUs"


def test_the_step_time_model_prices_each_jobs_communication(cli, cli_json, tmp_path):
    """Jobs stating params and step_time (docs/campaign.md#communication) pay the step-time model's all-reduce on the
    layout of each row: a 1.3B model on eight 1-GPU VMs over TCP needs several times its work, on one 8-GPU managed
    instance none; the CLI's JSON, Python's result and `spotsim report` all carry it."""
    jobs = write_jobs(tmp_path / "jobs.csv", [
        {"name": "plain", "arrival": "0h", "work": "6h", "gpus": 8, "params": "", "step_time": ""},
        {"name": "llm", "arrival": "0h", "work": "6h", "gpus": 8, "params": "1.3B", "step_time": "400ms"},
        {"name": "tiny", "arrival": "0h", "work": "6h", "gpus": 8, "params": "10M", "step_time": "400ms"}])
    args = ("--trace", "gcp-us-central1-c", "--jobs", jobs, "-p", "on-demand", "-r", "2")
    doc = cli_json("campaign", *args, "--format", "json")
    assert doc["communication_modelled_jobs"] == 2 and doc["links"].endswith("instance_links.json")
    rows = {row["policy"]: {j["name"]: j for j in row["jobs"]} for row in doc["policies"]}
    diy = rows["on-demand"]
    assert diy["plain"]["scaling_efficiency"] == 0.9, "no params: the flat --cross-instance-efficiency"
    assert diy["tiny"]["scaling_efficiency"] == 1.0, "40 MB all-reduced behind the backward pass"
    assert diy["llm"]["scaling_efficiency"] < 0.5, "2.6 GB over 24 Gbit/s each step"
    startup = 5 / 60
    price = diy["tiny"]["cost"] / (8 * (6 + startup))
    for name in ("plain", "llm"):
        work = 6 / diy[name]["scaling_efficiency"]
        assert diy[name]["cost"] == pytest.approx(8 * price * (work + startup), rel=1e-4), name
        assert diy[name]["work_hours"] == 6, "the JSON's work is the job's own"
    vertex = rows["vertex-ai on-demand a2-highgpu-1g/a2-highgpu-8g"]
    assert vertex["llm"]["scaling_efficiency"] == 1.0, "one a2-highgpu-8g: NVLink hides it"
    assert vertex["plain"]["scaling_efficiency"] == 1.0
    result = spotsim.campaign("gcp-us-central1-c", "on-demand", jobs=str(jobs), replications=2)
    assert result.as_dict() == doc
    efficiency = result.job_summary.set_index(["policy", "name"])["scaling_efficiency"]
    assert efficiency[("on-demand", "llm")] == diy["llm"]["scaling_efficiency"]
    table = cli("campaign", *args)[1]
    assert "communication of 2 jobs from the step-time model" in table
    out = tmp_path / "c.json"
    assert cli("campaign", *args, "-f", "json", "-o", out)[0] == 0
    code, _, err = cli("report", out, "-o", tmp_path / "c.html")
    assert code == 0, err

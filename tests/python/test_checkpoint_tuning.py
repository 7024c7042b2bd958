"""Checkpoint tuning from Python: the numeric interval column, paired differences against a checkpoint policy, and
spotsim.checkpoint_tuning()."""
import math

import numpy as np
import pytest

import spotsim

JOB = dict(work="24h", checkpoint_write="5m")


@pytest.fixture(scope="module")
def grid():
    return spotsim.sweep(traces=["us-west1"], policies=["spot-only", "adaptive"], checkpoints=["daly", "hazard"],
                         checkpoint_intervals=["30m", "3h"], replications=60, seed=3, progress=False, **JOB)


def test_interval_hours_is_the_number_behind_the_spec():
    mtbf = spotsim.trace_zones("us-west1").loc[0, "spot_mtbf_hours"]
    write = 5 / 60
    assert spotsim.interval_hours("fixed:interval=90m", "us-west1", write) == 1.5
    assert spotsim.interval_hours("fixed", "us-west1", write) == 1.0  # the policy's default interval
    assert spotsim.interval_hours("daly", "us-west1", write) == pytest.approx(spotsim.daly_interval(write, mtbf))
    assert spotsim.interval_hours("young:on_notice=true", "us-west1", write) == pytest.approx(
        spotsim.young_interval(write, mtbf))
    assert spotsim.interval_hours("daly:mtbf=10h", "us-west1", write) == pytest.approx(spotsim.daly_interval(write, 10))
    for varying in ("hazard", "optimal-dp", "none", "continuous"):
        assert math.isnan(spotsim.interval_hours(varying, "us-west1", write))
    with pytest.raises(spotsim.InputError, match="interval"):
        spotsim.interval_hours("fixed:interval=90", "us-west1", write)


def test_simulation_result_and_sweep_carry_the_numeric_interval(grid):
    wide = grid.wide()
    assert list(wide.columns[:5]) == ["trace", "policy", "checkpoint", "interval_hours", "job"]
    by_spec = dict(zip(wide["checkpoint"], wide["interval_hours"]))
    assert by_spec["fixed:interval=30m"] == 0.5 and by_spec["fixed:interval=3h"] == 3.0
    assert math.isnan(by_spec["hazard"])
    result = grid.results[("us-west1", "spot-only", "daly", "job")]
    assert by_spec["daly"] == result.interval_hours
    assert list(grid.runs.columns[:5]) == list(wide.columns[:5])
    assert list(grid.summary.columns[:6]) == ["trace", "policy", "checkpoint", "interval_hours", "job", "metric"]
    # A fixed interval of compute is what the job achieves between checkpoints: 24 h of work in 8 segments of 3 h.
    fixed = grid.results[("us-west1", "spot-only", "fixed:interval=3h", "job")]
    assert fixed.effective_interval_hours == pytest.approx(3.0)


def test_paired_differences_against_a_checkpoint_policy(grid):
    paired = grid.paired_differences("daly", "completion_hours")
    assert set(paired["baseline_kind"]) == {"checkpoint"}
    assert len(paired) == len(grid.results)
    row = paired.query("policy == 'adaptive' and checkpoint == 'fixed:interval=3h'").iloc[0]
    runs = grid.runs.query("policy == 'adaptive'")
    a = runs[runs["checkpoint"] == "fixed:interval=3h"]["completion_hours"].to_numpy()
    b = runs[runs["checkpoint"] == "daly"]["completion_hours"].to_numpy()
    assert row["mean_difference"] == pytest.approx((a - b).mean())
    assert row["interval_hours"] == 3.0
    assert (paired.query("checkpoint == 'daly'")["mean_difference"] == 0).all()
    # A selection policy as baseline still works, and says which kind it was.
    assert set(grid.paired_differences("spot-only")["baseline_kind"]) == {"policy"}


def test_baseline_errors_name_the_choices(grid):
    with pytest.raises(spotsim.InputError, match="'young' is not among.*checkpoint: daly, hazard"):
        grid.paired_differences("young")
    with pytest.raises(spotsim.InputError, match="by: expected one of policy, checkpoint, job"):
        grid.paired_differences("daly", by="trace")


def test_paired_difference_refuses_results_that_do_not_share_random_numbers():
    a = spotsim.simulate("us-west1", "spot-only", "daly", replications=20, seed=1, **JOB)
    b = spotsim.simulate("us-west1", "spot-only", "hazard", replications=20, seed=2, **JOB)
    with pytest.raises(spotsim.InputError, match="differ in seed"):
        spotsim.paired_difference(a, b)
    c = spotsim.simulate("us-west1", "spot-only", "hazard", replications=20, seed=1, **JOB)
    d = spotsim.paired_difference(c, a, "completion_hours")
    assert d["n"] == 20
    assert d["mean_difference"] == pytest.approx(c.runs["completion_hours"].mean() - a.runs["completion_hours"].mean())


@pytest.fixture(scope="module")
def tuning():
    return spotsim.checkpoint_tuning("us-west1", intervals=["3h", "30m", "1h"], checkpoints=["daly", "hazard"],
                                     baseline="daly", replications=60, seed=3, progress=False, **JOB)


def test_checkpoint_tuning_ranks_intervals_and_policies(tuning):
    assert list(tuning["checkpoint"]) == ["fixed:interval=30m", "fixed:interval=1h", "fixed:interval=3h", "daly",
                                          "hazard"]
    assert list(tuning["interval_hours"][:3]) == [0.5, 1.0, 3.0]
    fixed = tuning[tuning["checkpoint"].str.startswith("fixed:")]
    best = fixed.loc[fixed["completion_hours_mean"].idxmin(), "checkpoint"]
    assert list(tuning.loc[tuning["best"], "checkpoint"]) == [best]
    assert tuning.loc[tuning["best"], "plausible"].all()
    assert not tuning.loc[~tuning["checkpoint"].str.startswith("fixed:"), "plausible"].any()
    daly = tuning.set_index("checkpoint").loc["daly"]
    assert daly["difference"] == 0 and daly["difference_ci_low"] == 0
    assert tuning.attrs["baseline"] == "daly" and tuning.attrs["metric"] == "completion_hours"
    assert tuning.attrs["best_interval_hours"] == tuning.loc[tuning["best"], "interval_hours"].iloc[0]
    assert daly["interval_hours"] == pytest.approx(tuning.attrs["daly_interval_hours"])


def test_checkpoint_tuning_gives_the_simulations_numbers_exactly(tuning):
    direct = spotsim.simulate("us-west1", "spot-only", "hazard", replications=60, seed=3, **JOB)
    row = tuning.set_index("checkpoint").loc["hazard"]
    assert row["completion_hours_mean"] == direct.summary.loc["completion_hours", "mean"]
    assert row["cost_total_mean"] == direct.summary.loc["cost_total", "mean"]
    assert row["effective_interval_hours"] == pytest.approx(direct.effective_interval_hours)


def test_checkpoint_tuning_other_metric_and_bad_input():
    table = spotsim.checkpoint_tuning("us-west1", intervals=["1h", "2h"], checkpoints=[], metric="cost_total",
                                      replications=20, progress=False, **JOB)
    assert "cost_total_ci_low" in table.columns and table["best"].sum() == 1
    assert table.attrs["baseline"] == table.loc[table["best"], "checkpoint"].iloc[0]
    with pytest.raises(spotsim.InputError, match="baseline: expected 'best' or one of"):
        spotsim.checkpoint_tuning("us-west1", intervals=["1h"], checkpoints=["daly"], baseline="young",
                                  replications=5, progress=False, **JOB)
    with pytest.raises(spotsim.InputError, match="metric: unknown metric 'cost'"):
        spotsim.checkpoint_tuning("us-west1", intervals=["1h"], checkpoints=[], metric="cost", replications=5,
                                  progress=False, **JOB)
    with pytest.raises(spotsim.InputError, match="expected lists"):
        spotsim.checkpoint_tuning("us-west1", intervals="1h", replications=5, progress=False)
    assert np.isfinite(table["effective_interval_hours"]).all()

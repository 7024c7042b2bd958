"""spotsim.sweep(): a grid of simulations with common random numbers, and the analyses on top of it."""
import numpy as np
import pandas as pd
import pytest

import spotsim


@pytest.fixture(scope="module")
def grid():
    return spotsim.sweep(traces=["us-west1", "gcp-us-central1-c"], policies=["spot-only", "on-demand", "adaptive"],
                         checkpoints=["young-daly"], checkpoint_intervals=["30m", "4h"], replications=80, seed=5,
                         work="24h")


def test_every_combination_is_one_simulation(grid):
    assert len(grid.results) == 2 * 3 * 3
    checkpoints = set(grid.runs["checkpoint"])
    assert checkpoints == {"young-daly", "fixed:interval=30m", "fixed:interval=4h"}
    assert len(grid.runs) == 18 * 80
    single = spotsim.simulate("gcp-us-central1-c", "adaptive", "fixed:interval=4h", work="24h", replications=80,
                              seed=5)
    mine = grid.runs.query("trace == 'gcp-us-central1-c' and policy == 'adaptive' and checkpoint == "
                           "'fixed:interval=4h'")
    assert np.array_equal(mine["cost_total"].to_numpy(), single.runs["cost_total"].to_numpy())


def test_summary_and_wide(grid):
    assert list(grid.summary.columns[:6]) == ["trace", "policy", "checkpoint", "interval_hours", "job", "metric"]
    wide = grid.wide()
    assert len(wide) == 18
    assert list(wide.columns) == ["trace", "policy", "checkpoint", "interval_hours", "job", "cost_total_mean", "cost_total_ci_low",
                                  "cost_total_ci_high", "cost_total_p95", "completion_hours_mean",
                                  "completion_hours_ci_low", "completion_hours_ci_high", "completion_hours_p95"]
    assert (wide["cost_total_ci_low"] <= wide["cost_total_mean"]).all()
    on_demand = wide[wide["policy"] == "on-demand"]
    assert (on_demand["cost_total_mean"] > wide[wide["policy"] == "spot-only"]["cost_total_mean"].max()).all()


def test_common_random_numbers_make_paired_differences_tight(grid):
    paired = grid.paired_differences("spot-only", "completion_hours")
    row = paired.query("trace == 'us-west1' and policy == 'adaptive' and checkpoint == 'young-daly'").iloc[0]
    runs = grid.runs
    a = runs.query("trace == 'us-west1' and policy == 'adaptive' and checkpoint == 'young-daly'")["completion_hours"]
    b = runs.query("trace == 'us-west1' and policy == 'spot-only' and checkpoint == 'young-daly'")["completion_hours"]
    assert row["mean_difference"] == pytest.approx(a.mean() - b.mean())
    assert row["n"] == 80
    # The baseline against itself is exactly zero.
    self_row = paired.query("policy == 'spot-only'")
    assert (self_row["mean_difference"] == 0).all() and (self_row["ci_high"] == 0).all()
    with pytest.raises(spotsim.InputError, match="baseline"):
        grid.paired_differences("greedy")


def test_jobs_grid():
    result = spotsim.sweep(policies=["spot-only"], jobs={"short": {"work": "6h"}, "long": {"work": "24h"}},
                           replications=30)
    means = result.wide(stats=("mean",)).set_index("job")["completion_hours_mean"]
    assert means["short"] < means["long"]


def test_pareto_front():
    frame = pd.DataFrame({"cost": [1.0, 2.0, 3.0, 2.5, 1.0], "time": [5.0, 3.0, 1.0, 3.5, 5.0]})
    assert spotsim.pareto_front(frame, "cost", "time").tolist() == [True, True, True, False, True]


def test_quantile_ci_covers_the_true_quantile():
    rng = np.random.default_rng(1)
    covered = 0
    true_p95 = -np.log(0.05)  # exponential(1)
    for _ in range(400):
        estimate, low, high = spotsim.quantile_ci(rng.exponential(size=300), 0.95)
        assert low <= estimate <= high
        covered += low <= true_p95 <= high
    assert 0.91 <= covered / 400 <= 0.99

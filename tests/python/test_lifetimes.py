"""Lifetime records, Kaplan-Meier and model fits from Python, against `spotsim trace fit` on the real GCP data."""
import numpy as np
import pytest

import spotsim

GCP = "data/preemption/gcp-preemptible-lifetimes/lifetimes.csv"


@pytest.fixture(scope="module")
def records(shared):
    return spotsim.lifetime_records(shared / GCP)


def test_records(records):
    assert list(records.columns) == ["hours", "preempted", "zone", "machine_type"]
    assert records.attrs["format"]
    assert len(records) > 1000
    assert 0 < records["preempted"].mean() < 1  # user-stopped VMs are censored
    assert records["hours"].max() < 25.0  # GCP preemptible VMs live at most 24 h (+ start-up)


def test_fits_match_the_cli(cli_json, shared, records):
    for method in ("lsq-ecdf", "mle"):
        expected = cli_json("trace", "fit", shared / GCP, "--method", method, "--format", "json")["groups"][0]
        fits = spotsim.fit_lifetimes(records, method)
        assert list(fits["model"]) == [f["model"] for f in expected["fits"]]
        for fit, cli_fit in zip(fits.itertuples(), expected["fits"]):
            assert fit.parameters == cli_fit["parameters"]
            assert fit.r_squared == cli_fit["r_squared"] and fit.ks_distance == cli_fit["ks_distance"]
            # The CLI writes null where log L is -inf (the model excludes a record); Python has NaN there.
            if cli_fit["log_likelihood"] is None:
                assert np.isnan(fit.log_likelihood)
            else:
                assert fit.log_likelihood == cli_fit["log_likelihood"]
            assert fit.lifetime.to_dict() == cli_fit["lifetime"]
        assert fits["records"].iloc[0] == expected["records"]
    assert len(spotsim.fit_lifetimes(records, "all")) == 9


def test_bathtub_fits_better_than_exponential(records):
    fits = spotsim.fit_lifetimes(records, "lsq-ecdf").set_index("model")
    assert fits.loc["bathtub", "r_squared"] > 0.95 > fits.loc["exponential", "r_squared"]
    assert fits.loc["bathtub", "ks_distance"] < fits.loc["exponential", "ks_distance"]
    model = fits.loc["bathtub", "lifetime"]
    cap = fits.loc["bathtub", "parameters"]["cap_hours"]
    t = np.linspace(0, cap, 50)
    cdf = model.cdf(t)
    assert cdf.shape == t.shape and np.all(np.diff(cdf) >= 0) and cdf[-1] == pytest.approx(1.0)
    assert model.cdf(2.0).ndim == 0  # a scalar in, a 0-d array out


def test_kaplan_meier(records):
    km = spotsim.kaplan_meier(records)
    assert list(km.columns) == ["time_hours", "at_risk", "events", "survival"]
    assert np.all(np.diff(km["survival"]) < 0) and np.all(np.diff(km["time_hours"]) > 0)
    assert km["events"].sum() == records["preempted"].sum()
    # Product-limit by hand at the first few steps.
    s = np.cumprod(1 - km["events"] / km["at_risk"])
    assert np.allclose(s, km["survival"])
    cdf = spotsim.empirical_cdf(records)
    assert np.allclose(cdf["cdf"], 1 - km["survival"])
    plain = spotsim.empirical_cdf(records, censoring_aware=False)
    assert plain["cdf"].iloc[-1] == pytest.approx(1.0)


def test_lifetime_model_from_a_document():
    model = spotsim.lifetime_model({"model": "exponential", "mean_hours": 5.0})
    assert model.name == "exponential" and model.mean() == pytest.approx(5.0)
    assert model.cdf(np.array([5.0]))[0] == pytest.approx(1 - np.exp(-1))
    assert model.hazard(np.array([1.0, 10.0])) == pytest.approx([0.2, 0.2])
    assert model.to_dict() == {"model": "exponential", "mean_hours": 5.0}

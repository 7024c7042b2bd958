"""Listing policies, traces, metrics and GPUs; reading, deriving and writing traces."""
import pathlib

import pytest

import spotsim

from conftest import REPO


def test_policies_are_the_cli_list(cli):
    code, text, err = cli("simulate", "--list-policies")
    assert code == 0, err
    frame = spotsim.policies()
    assert list(frame.columns) == ["kind", "name", "description", "parameters"]
    assert set(frame["kind"]) == {"selection", "multi-node", "checkpoint"}
    for row in frame.itertuples():
        assert f"  {row.name}\n      {row.description}\n" in text
    listed = [line.strip() for line in text.splitlines() if line.startswith("  ") and not line.startswith("      ")]
    assert listed == list(frame["name"])
    for name in ("adaptive", "spot-only", "on-demand", "young-daly", "hazard", "fixed"):
        assert name in set(frame["name"])


def test_traces_are_the_shipped_files():
    frame = spotsim.traces()
    files = [p.stem for p in sorted((REPO / "traces" / "library").glob("*.json"))]
    assert list(frame["trace"]) == files
    row = frame.set_index("trace").loc["us-west1"]
    assert row["gpu"] == "A100-40GB" and row["zones"] == 1
    # Every listed name is accepted by simulate().
    for name in frame["trace"]:
        assert spotsim.simulate(trace=name, policy="on-demand", work="1h", replications=2).manifest["trace"]["name"]


def test_trace_zones():
    zones = spotsim.trace_zones("us-west1")
    assert len(zones) == 1
    zone = zones.iloc[0]
    assert zone["lifetime_model"] == "bathtub"
    assert zone["preemption_source"].startswith("lifetime model")
    assert zone["spot_price_mean"] < zone["on_demand_price_per_hour"]
    # MTBF of two nodes is the mean of the minimum of two lifetimes: shorter than one node's.
    two = spotsim.trace_zones("us-west1", nodes=2).iloc[0]
    assert 0 < two["spot_mtbf_hours"] < zone["spot_mtbf_hours"]
    recorded = spotsim.trace_zones("aws-us-west-2-v100")
    assert (recorded["availability_fraction"] < 1).all() and recorded["span_hours"].notna().all()


def test_derived_trace_round_trips_through_simulate(tmp_path):
    document = spotsim.trace_document("us-west1")
    mean = spotsim.lifetime_model(document["zones"][0]["spot"]["lifetime"]).mean()
    document["name"] = "us-west1-exponential"
    document["zones"][0]["spot"]["lifetime"] = {"model": "exponential", "mean_hours": mean}
    path = spotsim.write_trace(document, tmp_path / "exp.json")
    zone = spotsim.trace_zones(path).iloc[0]
    assert zone["lifetime_model"] == "exponential"
    assert zone["spot_mtbf_hours"] == pytest.approx(mean, rel=1e-6)
    result = spotsim.simulate(trace=path, policy="spot-only", replications=20)
    assert result.manifest["trace"]["name"] == "us-west1-exponential"


def test_metrics_and_gpus():
    metrics = spotsim.metrics()
    assert {"cost_total", "completion_hours", "preemptions"} <= set(metrics["metric"])
    assert metrics.set_index("metric").loc["cost_total", "unit"] == "USD"
    gpus = spotsim.gpu_specs().set_index("gpu")
    assert gpus.loc["H100", "peak_fp16_tflops"] > gpus.loc["A100-40GB", "peak_fp16_tflops"] > 0
    assert gpus.loc["V100", "peak_tf32_tflops"] == 0  # no TF32 before Ampere


def test_checkpoint_intervals_match_their_formulas():
    assert spotsim.young_interval(0.5, 100.0) == pytest.approx(10.0)
    # Daly's higher-order estimate is slightly below Young's for delta << M (Daly 2006, eq. 37).
    assert spotsim.daly_interval(1 / 60, 10.0) == pytest.approx(
        (2 * (1 / 60) * 10) ** 0.5 * (1 + ((1 / 60) / 20) ** 0.5 / 3 + (1 / 60) / 20 / 9) - 1 / 60)


def test_checkpoint_cost():
    cost = spotsim.checkpoint_cost(1e9, write_gbps=2.0, read_gbps=4.0)
    assert cost["size_gb"] == pytest.approx(14.0)  # mixed-precision Adam: 14 bytes per parameter
    assert cost["write_s"] == pytest.approx(7.0) and cost["restore_s"] == pytest.approx(3.5)

"""Kineto step profiles and step-time predictions from Python, against `spotsim steptime` on the real traces."""
import json
import pathlib

import numpy as np
import pytest

import spotsim

V100 = "data/kernels/kineto-traces/hta/v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"


@pytest.fixture(scope="module")
def profile(shared):
    return spotsim.read_kineto(shared / V100)


def test_profile(profile):
    info = profile.info
    assert info["gpu"] == "V100" and info["vendor"] == "nvidia" and info["schema"] == "current"
    steps = profile.steps
    assert list(steps.columns) == ["step", "warmup", "wall_ms", "gpu_busy_ms", "step_ms", "matrix_ms",
                                   "memory_bound_ms", "communication_ms", "memcpy_memset_ms", "other_ms"]
    assert steps["warmup"].iloc[0] and not steps["warmup"].iloc[-1]
    steady = steps[~steps["warmup"]]
    assert info["step_ms_mean"] == pytest.approx(steady["step_ms"].mean())
    assert (steps["step_ms"] >= steps["wall_ms"]).all() and (steps["step_ms"] >= steps["gpu_busy_ms"]).all()
    classes = profile.classes.set_index("kernel_class")
    assert classes.loc["matrix", "time_ms"] == pytest.approx(steady["matrix_ms"].mean())
    assert classes.loc["matrix", "kernels"] > 0


def test_predictions_match_the_cli_job_file(cli, shared, profile, tmp_path):
    job = tmp_path / "job.json"
    code, _, err = cli("steptime", shared / V100, "--target", "A100-40GB,H100", "--steps", "1000", "--job-out", job)
    assert code == 0, err
    expected = json.loads(job.read_text())["step_time_s_by_gpu"]
    predictions = profile.predict(["A100-40GB", "H100"]).set_index("target")
    assert list(predictions.index) == ["V100", "A100-40GB", "H100"]
    for gpu, seconds in expected.items():
        assert predictions.loc[gpu, "predicted_step_ms"] * 1e-3 == pytest.approx(seconds, rel=1e-12)
    # On its own GPU the prediction is the measurement; faster GPUs predict shorter steps.
    v100 = predictions.loc["V100"]
    assert v100["predicted_step_ms"] == pytest.approx(v100["measured_step_ms"])
    assert predictions.loc["H100", "predicted_step_ms"] < predictions.loc["A100-40GB", "predicted_step_ms"] < \
        v100["predicted_step_ms"]
    assert predictions.loc["A100-40GB", "predicted_matrix_ms"] < v100["measured_matrix_ms"]


def test_a_comma_list_of_targets(profile):
    assert list(profile.predict("T4,L4")["target"]) == ["V100", "T4", "L4"]


def test_op_model_share_follows_recorded_shapes(shared, profile):
    # The HTA V100 trace has no recorded shapes; the 2021 one records its classifier's GEMMs, of which only the
    # weight-gradient mm lies inside the V100 tables' range (the others have M = 32).
    assert (profile.predict(["A100-40GB"])["measured_by_op_model_ms"] == 0).all()
    legacy = spotsim.read_kineto(shared / "data/kernels/kineto-traces/kineto_tb_plugin/"
                                 "v100_resnet50_bs32_fp32_legacy_schema.pt.trace.json.gz")
    assert 0 < legacy.predict(["A100-40GB"]).set_index("target").loc["A100-40GB", "measured_by_op_model_ms"] < 0.1
    # The fixture's fp32 addmm (64 x 2048 x 1000) and layer norm are inside it: 65 us of kernels per step.
    fixture = pathlib.Path(__file__).resolve().parents[1] / "steptime" / "fixtures" / "shaped_ops.json"
    rows = spotsim.read_kineto(fixture).predict(["A100-40GB"]).set_index("target")
    assert rows.loc["V100", "measured_by_op_model_ms"] == 0  # its own GPU: measured times are kept
    assert rows.loc["A100-40GB", "measured_by_op_model_ms"] == pytest.approx(0.065)


def test_predict_takes_every_prediction_option_of_the_cli_with_its_defaults():
    """KinetoProfile.predict() reads the CLI's own prediction options (app/options/prediction_options.cpp): its
    signature names each one, with the schema's default."""
    import inspect
    from spotsim import _spotsim
    schema = {o["name"]: o["default"] for o in _spotsim.option_schema("steptime")}
    parameters = inspect.signature(spotsim.KinetoProfile.predict).parameters
    own = {"self", "targets", "measured_gpu"}
    assert {p.replace("_", "-") for p in parameters if p not in own} == set(schema)
    for name, parameter in parameters.items():
        if name in own:
            continue
        default = schema[name.replace("_", "-")]
        if default is None:
            assert parameter.default is None, name
        else:
            assert str(parameter.default).lower() == default, name


# Every option that changes a prediction, alone and together: the rows on every GPU are the CLI's table.
PREDICTION_CASES = [
    {},
    {"precision": "amp-fp16", "layout": "channels-last", "batch": 32, "target_batch": 256},
    {"precision": "tf32", "batch": 32, "target_batch": 256},
    {"precision": "fp32", "batch": 32, "target_batch": 112, "host_scaling": "per-sample"},
    {"tf32": "all"},
    {"fuse_norm_activation": True, "precision": "amp-bf16"},
]


def cli_rows(out):
    """The CLI's prediction table: target -> step ms."""
    rows, table = {}, False
    for line in out.splitlines():
        if line.startswith("target "):
            table = True
            continue
        if table:
            if not line.strip() or line.startswith("step ="):
                break
            parts = line.split()
            rows[parts[0]] = float(parts[4])
    return rows


@pytest.mark.parametrize("options", PREDICTION_CASES)
def test_predict_with_options_gives_the_clis_numbers(cli, shared, profile, options):
    args = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        args += [flag] if value is True else [flag, str(value)]
    code, out, err = cli("steptime", shared / V100, "--target", "A100-80GB,H100", *args)
    assert code == 0, err
    expected = cli_rows(out)
    rows = profile.predict(["A100-80GB", "H100"], **options).set_index("target")
    # The same GPUs: the measured V100 too, unless the precision needs tensor cores it lacks (both leave it out).
    assert list(rows.index) == list(expected), (out, rows)
    for gpu, step_ms in expected.items():
        assert rows.loc[gpu, "predicted_step_ms"] == pytest.approx(step_ms, abs=0.006), (options, gpu)


@pytest.mark.parametrize("options, words", [
    ({"target_batch": 64}, "--target-batch needs --batch"),
    ({"batch": 0, "target_batch": 64}, "--batch: expected a per-GPU batch"),
    ({"precision": "fp8"}, "--precision"),
    ({"tf32": "sometimes"}, "--tf32: expected conv, all or off"),
    ({"measured_link_gbps": 100}, "must be given together"),
])
def test_predict_refuses_what_the_cli_refuses_with_its_message(cli, shared, profile, options, words):
    args = []
    for key, value in options.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    code, _, err = cli("steptime", shared / V100, "--target", "H100", *args)
    assert code == 2 and words in err
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        profile.predict(["H100"], **options)


def test_cross_gpu_speedups_against_neusight_end_to_end_steps(shared):
    """docs/step-time.md#neusight-e2e: the speed-ups of tools/steptime/neusight_e2e_ratios.py, measured end to end
    by NeuSight (BERT-large and GPT-2-large training) and predicted from the transformer-like V100 trace; the
    documented errors are guarded (none may grow by more than 2 points), not a goal."""
    import importlib.util
    from conftest import REPO
    spec = importlib.util.spec_from_file_location("neusight_e2e_ratios", REPO / "tools/steptime/neusight_e2e_ratios.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    documented = {"A100-80GB-PCIE": 0.06, "H100": -0.16, "L4": -0.32}
    rows = {gpu: (predicted, measured, n, error) for gpu, predicted, measured, n, error in tool.table(shared)}
    assert set(rows) == set(documented)
    for gpu, error in documented.items():
        assert rows[gpu][2] == 3, gpu  # BERT-large batch 2 and 8, GPT-2-large batch 1: measured on every card
        assert abs(rows[gpu][3]) <= abs(error) + 0.02, (gpu, rows[gpu])

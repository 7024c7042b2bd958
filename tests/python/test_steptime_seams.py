"""Step time where its tables meet (docs/testing.md#cross-feature-matrices): the data-parallel table's one-GPU row
and the job file's step_time_s_by_nodes[0] are the prediction table's step for the same options, on the trace's
own GPU as on any other, for every option that changes a prediction; a faster GPU is never slower in the
data-parallel table than a slower one. Real traces from the shared data, real `spotsim steptime` runs."""
import itertools
import json

import pytest

V100_TRACE = "data/kernels/kineto-traces/hta/v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"
A100_TRACE = "data/kernels/kineto-traces/hta/a100_40gb_resnet50_ddp2_fp32_rank0.json.gz"

# (instance type, its GPU) on the trace's own GPU and on others.
INSTANCES = {V100_TRACE: [("p3.16xlarge", "V100"), ("p4d.24xlarge", "A100-40GB"), ("a2-highgpu-1g", "A100-40GB")],
             A100_TRACE: [("p4d.24xlarge", "A100-40GB"), ("p3.16xlarge", "V100")]}
OPTION_SETS = [
    [],
    ["--precision", "amp-fp16"],
    ["--batch", "32", "--target-batch", "112"],
    ["--batch", "32", "--target-batch", "112", "--host-scaling", "per-sample"],
    ["--layout", "channels-last", "--fuse-norm-activation"],
    ["--precision", "amp-fp16", "--batch", "32", "--target-batch", "64", "--layout", "channels-last"],
]
CASES = [(trace, instance, gpu, options) for trace, instances in INSTANCES.items()
         for (instance, gpu), options in itertools.product(instances, OPTION_SETS)]


def steptime_job(cli, shared, tmp_path, trace, gpu, instance, options, nodes="1..2"):
    job = tmp_path / "job.json"
    code, out, err = cli("steptime", shared / trace, "--target", gpu, "--instance", instance, "--nodes", nodes,
                         "--params", "25.6M", "--steps", "1000", "--job-out", job, *options)
    return code, out, err, job


def prediction_row(out, gpu):
    """The prediction table's row for `gpu`: {compute, comm, busy, step} in ms."""
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == gpu and len(fields) >= 5:
            return dict(zip(("compute", "comm", "busy", "step"), map(float, fields[1:5])))
    raise AssertionError(f"no prediction row for {gpu} in:\n{out}")


@pytest.mark.parametrize("trace,instance,gpu,options", CASES)
def test_one_gpu_row_is_the_predicted_step(cli, shared, tmp_path, trace, instance, gpu, options):
    code, out, err, job = steptime_job(cli, shared, tmp_path, trace, gpu, instance, options)
    if code == 2:  # an option the GPU cannot take (e.g. fp16 tensor cores): refused before any table
        assert "error" in err and not job.exists()
        return
    assert code == 0, err
    row = prediction_row(out, gpu)
    # The data-parallel model starts from the prediction's compute on this GPU, with the same options.
    assert f"on {gpu}: compute {row['compute']:.2f} ms" in out, (options, out)
    doc = json.loads(job.read_text())
    predicted = doc["step_time_s_by_gpu"][gpu]
    assert predicted * 1e3 == pytest.approx(row["step"], abs=0.006)
    if row["comm"] == 0:  # a one-GPU trace: the one-GPU step is the predicted step itself
        assert f"step on one GPU ({predicted * 1e3:.2f} ms)" in out, (options, out)
    # More instances never make a weak-scaling step shorter.
    assert doc["step_time_s_by_nodes"] == sorted(doc["step_time_s_by_nodes"])


@pytest.mark.parametrize("options", OPTION_SETS)
def test_a_faster_gpu_is_not_slower_in_the_data_parallel_table(cli, shared, tmp_path, options):
    """From the A100 trace: 8 x H100 (p5.48xlarge) never slower than 8 x A100 (p4d.24xlarge) per step."""
    steps = {}
    for instance, gpu in (("p4d.24xlarge", "A100-40GB"), ("p5.48xlarge", "H100")):
        code, out, err, job = steptime_job(cli, shared, tmp_path, A100_TRACE, gpu, instance, options, nodes="1")
        if code == 2:
            pytest.skip(f"{options} refused on {gpu}: {err.strip()}")
        assert code == 0, err
        steps[gpu] = json.loads(job.read_text())["step_time_s_by_nodes"][0]
    assert steps["H100"] <= steps["A100-40GB"], steps

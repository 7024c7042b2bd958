"""Every user error raises spotsim.InputError (a ValueError) whose message is the one the CLI prints after
"<command>: error: "."""
import pytest

import spotsim

SIMULATE_ERRORS = [
    # (python keyword arguments, the equivalent CLI arguments)
    ({"work": "48"}, ["--work", "48"]),
    ({"work": "2 fortnights"}, ["--work", "2 fortnights"]),
    ({"policy": "cheapest"}, ["--policy", "cheapest"]),
    ({"policy": "adaptive:speed=9"}, ["--policy", "adaptive:speed=9"]),
    ({"checkpoint": "fixed:interval=0s"}, ["--checkpoint", "fixed:interval=0s"]),
    ({"checkpoint": "sometimes"}, ["--checkpoint", "sometimes"]),
    ({"trace": "no-such-trace"}, ["--trace", "no-such-trace"]),
    ({"trace": "missing/dir/trace.json"}, ["--trace", "missing/dir/trace.json"]),
    ({"work": "10h", "steps": 100, "step_time": "1s"}, ["--work", "10h", "--steps", "100", "--step-time", "1s"]),
    ({"steps": 100}, ["--steps", "100"]),
    ({"steps": 0, "step_time": "1s"}, ["--steps", "0", "--step-time", "1s"]),
    ({"nodes": 0}, ["--nodes", "0"]),
    ({"checkpoint_write": "-5m"}, ["--checkpoint-write", "-5m"]),
    ({"deadline": "soon"}, ["--deadline", "soon"]),
    ({"replications": 0}, ["-n", "0"]),
    ({"threads": 5000}, ["--threads", "5000"]),
    # One rule for seeds and counts, in the CLI's words (the CLI used to wrap --seed -1 to 2^64 - 1).
    ({"seed": -1}, ["--seed", "-1"]),
    ({"seed": 1.5}, ["--seed", "1.5"]),
    ({"seed": 2**64}, ["--seed", str(2**64)]),
    ({"replications": 10**12}, ["-n", str(10**12)]),
    ({"nodes": 100001}, ["--nodes", "100001"]),
    ({"trace_start": "later"}, ["--trace-start", "later"]),
    ({"job": "no-such-job.json"}, ["--job", "no-such-job.json"]),
]


def cli_error(cli, *args):
    code, out, err = cli(*args)
    assert code == 2, (args, out, err)
    prefix, separator, message = err.partition(": error: ")
    assert separator and prefix.startswith(f"spotsim {args[0]}"), err
    return message.rstrip("\n")


@pytest.mark.parametrize("python_options,cli_args", SIMULATE_ERRORS)
def test_simulate_errors_carry_the_cli_message(cli, python_options, cli_args):
    expected = cli_error(cli, "simulate", *cli_args)
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.simulate(**{"replications": 5, **python_options})
    assert str(caught.value) == expected


def test_bad_trace_file_names_the_field(cli, tmp_path):
    bad = tmp_path / "bad.json"
    document = spotsim.trace_document("us-west1")
    document["zones"][0]["spot"]["price_per_hour"] = "cheap"
    bad.write_text(__import__("json").dumps(document))
    expected = cli_error(cli, "simulate", "--trace", bad)
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.simulate(trace=str(bad), replications=5)
    assert str(caught.value) == expected
    assert "price_per_hour" in expected
    # write_trace() validates with the same reader before writing.
    with pytest.raises(spotsim.InputError, match="price_per_hour"):
        spotsim.write_trace(document, tmp_path / "never.json")
    assert not (tmp_path / "never.json").exists()


def test_input_error_is_a_value_error():
    with pytest.raises(ValueError):
        spotsim.simulate(nodes=-1)


def test_integers_must_be_integers():
    with pytest.raises(spotsim.InputError, match="--nodes"):
        spotsim.simulate(nodes=1.5)
    with pytest.raises(spotsim.InputError, match="--replications"):
        spotsim.simulate(replications="ten")


def test_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        spotsim.simulate(colour="blue")
    with pytest.raises(TypeError):
        spotsim.sweep(colour="blue")


def test_trace_fit_errors_carry_the_cli_message(cli, tmp_path):
    missing = tmp_path / "missing.csv"
    expected = cli_error(cli, "trace", "fit", missing)
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.lifetime_records(missing)
    assert str(caught.value) == expected


def test_steptime_errors_carry_the_cli_message(cli, tmp_path):
    missing = tmp_path / "missing.json.gz"
    expected = cli_error(cli, "steptime", missing)
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.read_kineto(missing)
    assert str(caught.value) == expected


def test_steptime_target_errors_carry_the_cli_message(cli, shared):
    trace = shared / "data/kernels/kineto-traces/hta/a100_alexnet_benchmark_small.json.gz"
    expected = cli_error(cli, "steptime", trace, "--target", "GTX-480")
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.read_kineto(trace).predict(["GTX-480"])
    assert str(caught.value) == expected
    expected = cli_error(cli, "steptime", trace, "--target", "V100", "--tf32", "sometimes")
    with pytest.raises(spotsim.InputError) as caught:
        spotsim.read_kineto(trace).predict(["V100"], tf32="sometimes")
    assert str(caught.value) == expected


def test_other_errors():
    with pytest.raises(spotsim.InputError, match="--trace 'nowhere'"):
        spotsim.trace_zones("nowhere")
    with pytest.raises(spotsim.InputError, match="--method 'guess'"):
        spotsim.fit_lifetimes({"hours": [1.0, 2.0], "preempted": [True, True]}, method="guess")
    with pytest.raises(spotsim.InputError, match="lifetimes"):
        spotsim.fit_lifetimes({"hours": [1.0, 2.0], "preempted": [True]})
    with pytest.raises(spotsim.InputError, match="lifetime"):
        spotsim.lifetime_model({"model": "lognormal"})
    with pytest.raises(spotsim.InputError, match="mtbf_hours"):
        spotsim.daly_interval(0.1, 0.0)
    with pytest.raises(spotsim.InputError, match="policies"):
        spotsim.sweep(policies=[])
    with pytest.raises(spotsim.InputError, match="--training-setup"):
        spotsim.checkpoint_cost(1e9, training_setup="magic")

"""Policies written in Python inside the engine (docs/plugins.md): results, errors, and the sky_spot strategy files
of policies/examples/sky_spot/ against the Can't Be Late authors' per-window reference runs."""
import csv
import json

import pytest

import spotsim
from spotsim import _spotsim
from spotsim.score import run_windows, score_strategy
from spotsim.strategy_files import strategy_policy

SD = _spotsim.SelectionDecision
PAIRS = ("us-west-2a_v100_1", "us-west-2b_k80_8")
EXAMPLES = {"strawman": ("greedy_strategy.py", "greedy"),
            "rc_cr_threshold": ("uniform_progress_strategy.py", "uniform-progress")}


class SpotWhenAvailable:
    def decide(self, obs):
        for zone, available in enumerate(obs.spot_available):
            if available:
                return SD.spot(zone)
        return SD.on_demand(0)


def test_a_python_policy_gives_the_same_runs_for_a_seed():
    a = spotsim.simulate("us-west1", SpotWhenAvailable(), work="12h", replications=20, seed=5)
    b = spotsim.simulate("us-west1", SpotWhenAvailable, work="12h", replications=20, seed=5, threads=4)
    assert a.manifest["policy"] == "python:SpotWhenAvailable"
    assert list(a.runs["fingerprint"]) == list(b.runs["fingerprint"])


def test_a_policy_returning_garbage_gets_a_type_error_naming_it():
    class Garbage:
        def decide(self, obs):
            return "spot"
    with pytest.raises(TypeError, match=r"policy 'Garbage' at t = 0 h.*expected a spotsim.SelectionDecision"):
        spotsim.simulate("us-west1", Garbage(), work="12h", replications=1)


def test_a_bad_zone_is_a_value_error():
    class Zone99:
        def decide(self, obs):
            return SD.spot(99)
    with pytest.raises(ValueError, match=r"policy 'Zone99'.*zone 99"):
        spotsim.simulate("us-west1", Zone99(), work="12h", replications=1)


def test_an_exception_in_the_policy_names_it_and_the_time():
    class Fails:
        def decide(self, obs):
            if obs.elapsed > 3600:
                raise KeyError("boom")
            return SD.on_demand(review_at=obs.now + 7200)
    with pytest.raises(spotsim._spotsim.PolicyError, match=r"policy 'Fails' at t = 2 h.*KeyError: 'boom'"):
        spotsim.simulate("us-west1", Fails(), work="12h", replications=1)


def test_a_kept_observation_cannot_be_read_after_the_call():
    class Keeps:
        kept = None
        def decide(self, obs):
            Keeps.kept = obs
            return SD.on_demand()
    spotsim.simulate("us-west1", Keeps(), work="1h", replications=1)
    with pytest.raises(ValueError, match="kept after the policy call"):
        Keeps.kept.elapsed


@pytest.fixture(scope="module")
def reference(shared, cli, tmp_path_factory):
    base = shared / "data" / "preemption" / "aws-gcp-spot-availability" / "availability" / "1-node" / "aws-10-26-2022"
    ref = shared / "data" / "validation" / "cant-be-late-reference"
    out = tmp_path_factory.mktemp("traces")
    traces = {}
    for pair in PAIRS:
        code, _, err = cli("trace", "convert", base / f"{pair}.json", "--on-demand-price", "3.06", "--spot-price",
                           "0.9731", "-o", out / f"{pair}.json")
        assert code == 0, err
        traces[pair] = out / f"{pair}.json"
    windows = list(csv.DictReader(open(ref / "windows.csv")))
    runs = [json.loads(line) for line in open(ref / "reference_runs.jsonl")]
    return traces, windows, runs, ref


@pytest.mark.parametrize("their", sorted(EXAMPLES))
def test_strategy_files_reproduce_the_reference_runs_exactly(reference, their):
    traces, windows, runs, _ = reference
    from conftest import REPO
    file, builtin = EXAMPLES[their]
    path = REPO / "policies" / "examples" / "sky_spot" / file
    checked = 0
    for pair in PAIRS:
        rows = [w for w in windows if w["pair"] == pair]
        starts = [int(w["start_tick"]) * 600 for w in rows]
        for deadline in (52.0, 60.0, 70.0, 80.0):
            ours = run_windows(traces[pair], starts, strategy_policy(path), deadline)
            native = run_windows(traces[pair], starts, builtin, deadline)
            for i, w in enumerate(rows):
                ref = next(r for r in runs if r["pair"] == pair and r["window"] == int(w["window"])
                           and r["deadline"] == deadline and r["policy"] == their)
                assert abs(ours["cost_total"][i] - ref["cost"]) <= 0.01, (pair, w["window"], deadline)
                assert ours["completion_hours"][i] == pytest.approx(ref["finish_exact_h"], abs=1e-9)
                assert ours["deadline_met"][i]
                # The same instance in every tick as the C++ policy (which the gtest checks tick by tick).
                assert ours["fingerprint"][i] == native["fingerprint"][i]
                checked += 1
    assert checked == 160


def test_score_command(reference):
    traces, _, _, ref = reference
    from conftest import REPO
    path = REPO / "policies" / "examples" / "sky_spot" / "greedy_strategy.py"
    s = score_strategy(path, traces[PAIRS[0]], ref / "windows.csv", 52.0, pair=PAIRS[0])
    assert s["windows"] == 20 and s["deadline_misses"] == 0
    assert s["spot_only_cost"] < s["mean_cost"] < s["on_demand_cost"]
    assert s["score"] == pytest.approx((s["on_demand_cost"] - s["mean_cost"]) / (s["on_demand_cost"] - s["spot_only_cost"]))


class SpotOnlyInPython:
    """The built-in spot-only, as a Python class: spot in the cheapest zone where it is obtainable, else wait."""

    def decide(self, obs):
        if obs.purchase == spotsim.Purchase.SPOT:
            return SD.spot(obs.zone)
        zones = [z for z, available in enumerate(obs.spot_available) if available]
        if not zones:
            return SD.wait()
        return SD.spot(min(zones, key=lambda z: obs.spot_prices[z]))


class EveryFortyFiveMinutes:
    """The built-in fixed:interval=45m, as a Python checkpoint policy."""
    varies_within_instance = False

    def next_interval(self, obs):
        return 45 * 60.0


class NeverCheckpoints:
    def next_interval(self, obs):
        return None


def test_python_selection_and_checkpoint_policies_give_the_builtins_runs_exactly():
    builtin = spotsim.simulate("us-west1", "spot-only", "fixed:interval=45m", work="30h", replications=50, seed=9)
    python = spotsim.simulate("us-west1", SpotOnlyInPython(), EveryFortyFiveMinutes(), work="30h", replications=50,
                              seed=9)
    assert list(python.runs["fingerprint"]) == list(builtin.runs["fingerprint"])
    assert list(python.runs["cost_total"]) == list(builtin.runs["cost_total"])
    assert (python.runs["checkpoints"] > 0).all()


def test_a_checkpoint_policy_returning_none_never_checkpoints_and_garbage_is_refused():
    none = spotsim.simulate("us-west1", "spot-only", NeverCheckpoints(), work="12h", replications=20, seed=2)
    assert (none.runs["checkpoints"] == 0).all()

    class Negative:
        def next_interval(self, obs):
            return -5.0
    with pytest.raises(ValueError, match="Negative"):
        spotsim.simulate("us-west1", "spot-only", Negative(), work="12h", replications=1)


class ThroughTheObservation:
    """A strategy policy with its per-tick protocol hidden: the engine then asks decide(observation) every tick."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name

    def reset(self):
        self.policy.reset()

    def decide(self, obs):
        return self.policy.decide(obs)


@pytest.mark.parametrize("their", sorted(EXAMPLES))
def test_the_per_tick_protocol_gives_the_runs_of_the_observation_path(reference, their):
    """Strategy files run through decide_tick (plain numbers) exactly as through decide(observation): every window,
    tick by tick (the fingerprint), on both recordings and a tight and a loose deadline."""
    traces, windows, _, _ = reference
    from conftest import REPO
    path = REPO / "policies" / "examples" / "sky_spot" / EXAMPLES[their][0]
    for pair in PAIRS:
        starts = [int(w["start_tick"]) * 600 for w in windows if w["pair"] == pair]
        for deadline in (52.0, 80.0):
            fast = run_windows(traces[pair], starts, strategy_policy(path), deadline)
            slow = run_windows(traces[pair], starts, ThroughTheObservation(strategy_policy(path)), deadline)
            assert list(fast["fingerprint"]) == list(slow["fingerprint"]), (pair, deadline)
            assert list(fast["cost_total"]) == list(slow["cost_total"]), (pair, deadline)


class TickGreedy:
    """A policy written to the per-tick protocol: spot when there is some, else on-demand; counts begin() calls."""
    name = "tick-greedy"

    def __init__(self, answer=None):
        self.begins, self.answer = 0, answer

    def begin(self, obs):
        self.begins += 1
        assert obs.decision_tick == 600.0 and obs.zone_count == 1

    def decide_tick(self, elapsed, progress, held, instance_age, spot_available):
        assert isinstance(elapsed, float) and isinstance(progress, float) and held in (0, 1, 2)
        if self.answer is not None:
            return self.answer
        return 1 if spot_available else 2

    def decide(self, obs):  # the event mode
        return SD.spot(0) if obs.spot_available[0] else SD.on_demand(0)


def test_a_python_policy_may_decide_per_tick_with_plain_numbers(reference):
    traces, windows, _, _ = reference
    starts = [int(w["start_tick"]) * 600 for w in windows if w["pair"] == PAIRS[0]][:5]
    policy = TickGreedy()
    runs = run_windows(traces[PAIRS[0]], starts, policy, 80.0)
    assert policy.begins == 5  # once per run
    assert all(runs["deadline_met"])
    with pytest.raises(ValueError, match=r"decide_tick\(\) returned 7, expected 0 \(wait\), 1 \(spot\) or 2"):
        run_windows(traces[PAIRS[0]], starts[:1], TickGreedy(answer=7), 80.0)

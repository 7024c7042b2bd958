"""Python policies wrapping a built-in rule (spotsim.BuiltinPolicy, docs/plugins.md#wrapping-a-built-in-rule), drawn
across the features that move a job or add time (docs/testing.md#cross-feature-matrices): regions with checkpoints
up to 1 TB, notices and emergency checkpoints, the event engine and the Can't Be Late mode. A wrapper that passes
every decision through runs exactly as the built-in (same fingerprints), so it keeps the deadline promise: it meets
every deadline that on-demand alone meets."""
import random

import pytest

import spotsim

POLICIES = ["greedy", "uniform-progress", "adaptive", "cost-aware", "failover"]


class PassThrough:
    """Asks the built-in, keeps a count of what it chose, returns its decision unchanged."""

    def __init__(self, spec):
        self.inner = spotsim.BuiltinPolicy(spec)
        self.name = f"wrapped-{spec}"
        self.decisions = 0

    def reset(self):
        self.inner.reset()

    def decide(self, obs):
        self.decisions += 1
        return self.inner.decide(obs)


def draw_cases(count, seed=28):
    rng = random.Random(seed)
    regions = ["us-central1", "us-east4", "us-east5", "europe-west1", "asia-southeast1", "us-west1"]
    cases = []
    for _ in range(count):
        case = {"trace": "gcp-h100-13-zones", "regions": ",".join(rng.sample(regions, rng.randint(1, 3))),
                "checkpoint_size": rng.choice(["0GB", "20GB", "200GB", "1TB"]),
                "work": f"{rng.randint(6, 30)}h", "startup": f"{rng.randint(1, 15)}m",
                "trace_start": "random", "seed": rng.randint(1, 10**6)}
        work_h = int(case["work"][:-1])
        case["deadline"] = f"{work_h * 60 + rng.randint(20, 8 * 60)}m"
        if rng.random() < 0.3:
            case.update(mode="cant-be-late", checkpoint="continuous", restore="0s", checkpoint_write="0s")
        else:
            case.update(checkpoint=rng.choice(["young-daly", "continuous", "hazard", "fixed:interval=2h",
                                               "fixed:interval=1h,on_notice=true"]),
                        restore=f"{rng.randint(0, 10)}m", checkpoint_write=f"{rng.randint(0, 10)}m")
        cases.append(case)
    return cases


CASES = draw_cases(30)


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_a_wrapped_built_in_runs_as_the_built_in_and_keeps_the_promise(case):
    run = dict(replications=3, threads=1, **case)
    reference = spotsim.simulate(policy="on-demand", **run).runs
    for spec in POLICIES:
        builtin = spotsim.simulate(policy=spec, **run).runs
        wrapper = PassThrough(spec)
        wrapped = spotsim.simulate(policy=wrapper, **run).runs
        assert wrapper.decisions > 0
        assert wrapped["fingerprint"].tolist() == builtin["fingerprint"].tolist(), spec
        assert wrapped["cost_total"].tolist() == builtin["cost_total"].tolist(), spec
        feasible = reference["deadline_met"] > 0
        assert (wrapped.loc[feasible, "deadline_met"] > 0).all(), (spec, case)


def test_builtin_policy_refuses_an_unknown_spec_and_a_kept_observation():
    with pytest.raises(spotsim.InputError, match="unknown policy"):
        spotsim.BuiltinPolicy("cheapest")
    kept = []

    class Keeper:
        def __init__(self):
            self.inner = spotsim.BuiltinPolicy("greedy")

        def decide(self, obs):
            kept.append(obs)
            return self.inner.decide(obs)

    spotsim.simulate(policy=Keeper(), work="2h", replications=1, threads=1)
    with pytest.raises(spotsim.InputError, match="kept after the policy call"):
        spotsim.BuiltinPolicy("greedy").decide(kept[0])

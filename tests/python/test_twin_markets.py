"""The twin markets of experiments/skynomad/twin_markets.py (docs/validation.md#skynomad-twins): each zone of a twin
alternates spells drawn from that zone's own recorded spells, and spotsim reads a twin as it reads the recording."""
import json
import os
import random
import subprocess
import sys
import tempfile

from conftest import REPO

sys.path.insert(0, str(REPO / "experiments"))
sys.path.insert(0, str(REPO / "experiments" / "skynomad"))
import skynomad_region_scaling as scaling  # noqa: E402
import twin_markets as twins  # noqa: E402

RECORDING = REPO / "traces" / "library" / "aws-v100-9-zones.json"


def zone(times, counts):
    return {"spot": {"availability": {"times_s": times, "counts": counts}}}


def test_spells_merge_entries_of_one_state_and_keep_the_last_spell_cut_by_the_end():
    up, down = twins.spells(zone([0, 10, 30, 35, 50], [2, 1, 0, 0, 3]), 70)
    assert up == [30, 20]
    assert down == [20]


def test_a_zone_never_down_or_never_up_stays_so():
    rng = random.Random(1)
    assert twins.twin_availability([100], [], 100, rng) == {"times_s": [0.0], "counts": [1.0]}
    assert twins.twin_availability([], [100], 100, rng) == {"times_s": [0.0], "counts": [0.0]}


def test_a_twin_alternates_spells_drawn_from_the_zone_own_over_the_whole_span():
    recording = json.load(open(RECORDING))
    span = recording["span_s"]
    for z in recording["zones"]:
        up, down = twins.spells(z, span)
        twin = twins.twin_availability(up, down, span, random.Random(7))
        times, counts = twin["times_s"], twin["counts"]
        assert times[0] == 0.0 and times[-1] < span
        assert all(a != b for a, b in zip(counts, counts[1:])), "the states alternate"
        got_up, got_down = twins.spells(zone(times, counts), span)
        # Every spell but the first (cut at 0) and the last (cut at the end) is one of the zone's own.
        inner = twins.spell_sequence(twin, span)[1:-1]
        assert len(inner) > 10
        for length, is_up in inner:
            assert length in (up if is_up else down)
        # Stationary start: over a long span the twin is up about as often as the recording.
        share = sum(got_up) / span
        assert abs(share - sum(up) / span) < 0.15, z["name"]
        assert got_down or not down


def test_a_twin_is_fixed_by_its_seed_and_differs_between_seeds():
    with tempfile.TemporaryDirectory() as tmp:
        first = json.load(open(twins.write_twin(str(RECORDING), 3, tmp)))
        again = json.load(open(twins.write_twin(str(RECORDING), 3, tmp)))
        other = json.load(open(twins.write_twin(str(RECORDING), 4, tmp)))
    assert first == again
    assert first["zones"][0]["spot"]["availability"] != other["zones"][0]["spot"]["availability"]
    recording = json.load(open(RECORDING))
    for mine, theirs in zip(first["zones"], recording["zones"]):
        assert mine["name"] == theirs["name"]
        assert mine["on_demand_price_per_hour"] == theirs["on_demand_price_per_hour"]
        assert mine["spot"]["price_series"] == theirs["spot"]["price_series"]


def test_the_plan_calibration_is_a_long_twin_of_its_zone_alone_with_its_longest_spells():
    with tempfile.TemporaryDirectory() as tmp:
        trace = json.load(open(twins.calibration(str(RECORDING), "us-west-2b", tmp)))
    recording = json.load(open(RECORDING))
    assert [z["name"] for z in trace["zones"]] == ["us-west-2b"] and "migration" not in trace
    assert trace["span_s"] == 20 * recording["span_s"]
    own = next(z for z in recording["zones"] if z["name"] == "us-west-2b")
    up, down = twins.spells(own, recording["span_s"])
    # Every spell but the first and the last (cut by the calibration's ends) is one of the zone's own, and the
    # recording's first and last spells, cut by its ends and which the plan would otherwise never learn, are among
    # them.
    ended = set(twins.spell_sequence(trace["zones"][0]["spot"]["availability"], trace["span_s"])[1:-1])
    assert ended <= {(length, True) for length in up} | {(length, False) for length in down}
    recorded = twins.spell_sequence(own["spot"]["availability"], recording["span_s"])
    assert recorded[0] in ended and recorded[-1] in ended


def test_the_script_refuses_counts_outside_the_setting_and_malformed_counts_naming_the_option():
    script = str(REPO / "experiments" / "skynomad" / "twin_markets.py")
    for counts, expected in (("4", "aws-v100 has 1 to 3 regions, got '4'"),
                             ("1,x", "expected region counts separated by commas, got '1,x'")):
        done = subprocess.run([sys.executable, script, "--setting", "aws-v100", "--counts", counts],
                              capture_output=True, text=True)
        assert done.returncode == 2 and f"--counts: {expected}" in done.stderr, done.stderr


def test_spotsim_runs_a_window_on_a_twin_and_the_plan_on_its_calibration(cli):
    with tempfile.TemporaryDirectory() as tmp:
        twin = twins.write_twin(str(RECORDING), 1, tmp)
        calibration = twins.calibration(str(RECORDING), "us-east-1c", tmp)
        binary = os.environ["SPOTSIM_CLI"]  # the cli fixture has checked it
        s = scaling.SETTINGS["aws-v100"]
        for policy in ("cost-aware", f"planned:calibration={calibration},regimes=pooled"):
            row = scaling.run(binary, twin, s["zones"][:1], policy, s["work_h"], 1.5, 12.0)
            assert int(row["deadline_met"]) == 1
            assert float(row["cost_total"]) >= float(row["optimum_cost"]) - 1e-6

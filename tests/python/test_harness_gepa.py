"""Strategy files run as GEPA's Can't Be Late example scores them (spotsim.harness, profile gepa-test:
StrategyFile(path) with that profile's entry, and score("GEPA", runs)), checked against GEPA's own code:
tests/python/data/gepa_harness_runs.jsonl holds what its evaluate() (gepa-ai/gepa @ b265bf9c,
examples/adrs/can_be_late/main.py, with utils/simulation.py's run_simulation(): a subprocess of the simulator it
vendors in utils/simulator/ per sample) gave for each test strategy in harness_strategies/ and for a few programs
derived from them (the record's "variants": main.py's parser and namespace, an absolute --trace-file a strategy can
read ahead in, GEPA's check of the source, the registry of its vendored package, which holds no built-in strategy,
the cost simulate() takes from a strategy's own info(), and the JSON it writes) on 2 envs x 3 windows x deadlines
52, 70 h x changeovers 0.02, 0.1 h; the samples of GEPA's test split in its order (utils/dataset.py's
load_trace_dataset(...)["test"]); and one file's score on every one of them. Recorded with
tools/harness/record_gepa_runs.py.

GEPA's vendored simulator is ADRS/OpenEvolve's (lynnliu030/ADRS @ 2d7047e, openevolve/examples/ADRS/cant-be-late/
simulator): main.py and every sky_spot module it runs are the same git blobs, except sky_spot/strategies/__init__.py,
which there imports the built-in strategies and here only the base class. On the files that register no built-in's
NAME, GEPA's record and the ADRS one agree run for run."""
import json

import pytest

from conftest import REPO, harness_disagreements, recorded_windows, run_recorded
from spotsim.harness import StrategyFile, profile, score

STRATEGIES = REPO / "tests" / "python" / "harness_strategies"
DATA = REPO / "tests" / "python" / "data"
LINES = [json.loads(line) for line in open(DATA / "gepa_harness_runs.jsonl")]
HEADER, RECORDED = LINES[0], LINES[1:]
VARIANTS = HEADER["variants"]
FAILED_SAMPLE = -100000.0  # GEPA's FAILED_SCORE (utils/simulation.py)
# What spotsim says of a run GEPA failed (GEPA keeps the first 500 characters of the sample's stderr, which mostly
# stop before the exception: its reason is read from spotsim's side, as in test_harness.py).
EXPECTED_ERRORS = {"raises_midway": "tick 100", "no_from_args": "NotImplementedError", "parse_args": "SystemExit",
                   "hides_step_name": "No _step method found",
                   "named_multi_region_base": "Name multi_region_base already exists",
                   "unserialisable_args": "not JSON serializable", "unserialisable_info": "not JSON serializable"}
RUN_CPU_LIMIT_S = 0.3  # a run takes a few ms: one that never ends fails here instead of hanging the test


def program(name):
    """A candidate's text: a file of harness_strategies/, or a variant derived from one as the record says."""
    if name not in VARIANTS:
        return (STRATEGIES / f"{name}.py").read_text()
    text = (STRATEGIES / f"{VARIANTS[name]['base']}.py").read_text()
    for old, new in VARIANTS[name]["replace"]:
        assert text.count(old) == 1, (name, old)
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def windows(shared):
    return recorded_windows(shared, RECORDED)


@pytest.fixture(scope="module")
def ours(windows, tmp_path_factory):
    """spotsim's result for every recorded run, in the record's order (GEPA writes each candidate to a strategy.py
    of its own and runs each sample in a fresh process: a fresh object per run)."""
    entry = profile("gepa-test").entry
    folder = tmp_path_factory.mktemp("gepa_candidates")
    files = {}

    def strategy_file(name):  # written as GEPA writes a candidate: its own folder, strategy.py
        if name not in files:
            (folder / name).mkdir()
            path = folder / name / "strategy.py"
            path.write_text(program(name))
            files[name] = StrategyFile(path, entry=entry)
        return files[name]
    return run_recorded(RECORDED, windows, strategy_file, RUN_CPU_LIMIT_S)


def test_the_record_covers_every_candidate_on_the_whole_grid():
    names = sorted({p.stem for p in STRATEGIES.glob("*.py")} | set(VARIANTS))
    assert len(RECORDED) == 24 * len(names) == 24 * 19
    for name in names:
        runs = [r for r in RECORDED if r["strategy"] == name]
        assert len({(r["pair"], r["window"], r["deadline_hours"], r["overhead_hours"]) for r in runs}) == 24, name
    # GEPA's verdicts: it runs name_taken (ADRS/OpenEvolve refuses it) and reads a strategy's own "Cost".
    failed = {name: sum(not r["ok"] for r in RECORDED if r["strategy"] == name) for name in names}
    assert failed == {name: 0 for name in names} | {name: 24 for name in EXPECTED_ERRORS}
    for run in RECORDED:  # a sample's score: -cost, or GEPA's FAILED_SCORE
        assert run["score"] == (-run["cost"] if run["ok"] else FAILED_SAMPLE), run
        if run["strategy"] == "reports_own_cost":
            assert run["cost"] == 1.25
    messages = {r["strategy"]: r["error"] for r in RECORDED if not r["ok"]}
    assert "NotImplementedError" in messages["no_from_args"] and "usage:" in messages["parse_args"]
    assert messages["hides_step_name"] == "No _step method found"


def test_gepa_runs_the_adrs_openevolve_simulator_with_another_registry():
    """The files of harness_strategies/ cost the same in GEPA's record as in the ADRS/OpenEvolve one, run for run,
    but for the file named like an ADRS built-in ('strawman'), which GEPA's registry does not hold."""
    adrs = {(r["strategy"], r["pair"], r["window"], r["deadline_hours"], r["overhead_hours"]): r
            for r in map(json.loads, open(DATA / "adrs_harness_runs.jsonl"))}
    compared = 0
    for run in RECORDED:
        if run["strategy"] in VARIANTS:
            continue
        theirs = adrs[(run["strategy"], run["pair"], run["window"], run["deadline_hours"], run["overhead_hours"])]
        if run["strategy"] == "name_taken":
            assert run["ok"] and not theirs["ok"]
        else:
            assert (run["ok"], run["cost"]) == (theirs["ok"], theirs["cost"]), (run, theirs)
        compared += 1
    assert compared == len(adrs) == 264


def test_the_gepa_test_profile_holds_gepa_s_test_samples():
    """GEPA's test split: the 4 envs x its 30 fixed window ids x deadlines 52, 70, 92 h x changeovers 0.02, 0.2,
    0.4 h, every window read from the overhead=0.20 folder (the windows are the same files in every folder)."""
    from spotsim.harness import window_ids
    split = [tuple(s) for s in HEADER["gepa_test_split"]]
    assert len(split) == len(set(split)) == 1080
    assert sorted({s[1] for s in split}) == sorted(window_ids())
    runs = profile("gepa-test").runs()
    assert set(split) == set(runs) and len(runs) == 1080
    assert profile("gepa-test").score == "GEPA"


def test_the_gepa_test_profile_lists_them_in_gepa_s_order():
    """GEPA scores its test split in list order (main.py's _log_test_scores): env (its _TEST_ENVS order), window id
    (its _TEST_TRACE_IDS order), deadline, changeover; the profile's runs() say they come in the harness's order."""
    assert profile("gepa-test").runs() == [tuple(s) for s in HEADER["gepa_test_split"]]


def test_every_recorded_run_agrees_with_gepa(ours):
    """Same verdict as GEPA in every sample, the same cost (within 1e-6 USD) where it ran."""
    differ = harness_disagreements(RECORDED, ours, EXPECTED_ERRORS)
    assert not differ, f"{len(differ)} of {len(RECORDED)} runs differ from GEPA:\n" + "\n".join(map(str, differ))


def test_the_gepa_score_is_gepa_s_mean_of_sample_scores(ours):
    """GEPA's aggregate (main.py's _log_test_scores): the mean of the samples' scores, -cost or -100,000 each, so a
    failed sample costs its share, not the whole file (ADRS/OpenEvolve's F2 fails the whole file)."""
    def gepa_mean(runs):
        return sum(r["score"] for r in runs) / len(runs)
    assert score("GEPA", RECORDED)["score"] == pytest.approx(gepa_mean(RECORDED), abs=1e-6)
    for name in ("leans_on_override", "raises_midway"):  # a clean file, a failed one
        picked = [i for i, r in enumerate(RECORDED) if r["strategy"] == name]
        mine = score("GEPA", [ours[i] for i in picked])
        assert mine["score"] == pytest.approx(gepa_mean([RECORDED[i] for i in picked]), abs=1e-6), name
    mixed = [i for i, r in enumerate(RECORDED) if r["strategy"] in ("leans_on_override", "raises_midway")]
    assert score("GEPA", [ours[i] for i in mixed])["score"] == pytest.approx(gepa_mean([RECORDED[i] for i in mixed]),
                                                                             abs=1e-6)
    assert score("F2", [ours[i] for i in mixed])["score"] == FAILED_SAMPLE


def test_a_file_scores_what_gepa_s_test_score_says_on_the_whole_split():
    """The whole gepa-test profile (1,080 runs: the 92 h deadline and the 0.2, 0.4 h changeovers too) against GEPA's
    evaluate() on every sample of its test split: each sample's score, and their mean, the test score main.py logs."""
    from spotsim.harness import evaluate
    for stem, theirs in HEADER["full_split_scores"].items():
        summary, runs = evaluate(STRATEGIES / f"{stem}.py", "gepa-test", jobs=1)
        expected = dict(zip(map(tuple, HEADER["gepa_test_split"]), theirs))
        mine = {(r["env"], r["window"], r["deadline_hours"], r["overhead_hours"]): -r["cost"] if r["ok"]
                else FAILED_SAMPLE for r in runs}
        assert mine.keys() == expected.keys()
        assert max(abs(mine[k] - expected[k]) for k in expected) <= 1e-6, stem
        assert summary["score"] == pytest.approx(sum(theirs) / len(theirs), abs=1e-6), stem

"""SkyNomad's own policy, run in its own simulator on the published and the wide windows
(experiments/skynomad/artifact_policy_{test,wide}.csv, written by experiments/skynomad/run_artifact_policy.py;
docs/validation.md#skynomad-wide), read back as experiments/skynomad_region_scaling.py reads them.

The runs need the artifact's clone and are not repeated here; what is checked is that the committed runs are the
published ones where the paper has them, that they cover exactly the windows the comparison script defines, and,
against spotsim's optimum of a sample of the same windows, that the two simulators describe the same market (an
online policy cannot be much cheaper than the optimum; it would be if prices, zones or the window's start disagreed)."""
import concurrent.futures
import csv
import os
import subprocess
import sys
import tempfile

from conftest import REPO

sys.path.insert(0, str(REPO / "experiments"))
import skynomad_region_scaling as scaling  # noqa: E402

DIRECTORY = REPO / "experiments" / "skynomad"


def runs(which):
    return list(csv.DictReader(open(DIRECTORY / f"artifact_policy_{which}.csv")))


def key(setting, regions, ratio, start_h):
    return (setting,) + scaling.window_key(regions, ratio, start_h)


def test_the_runs_on_the_published_windows_are_the_published_costs():
    published = {(r["setting"], int(r["regions"]), round(float(r["start_h"]), 2)): r
                 for r in csv.DictReader(open(DIRECTORY / "published_windows.csv")) if r["who"] == "skynomad"}
    matched = 0
    for r in runs("test"):
        ref = published.get((r["setting"], int(r["regions"]), round(float(r["start_h"]), 2)))
        if ref is None:
            continue
        matched += 1
        # All but one reproduce to the cent; the aws-v100 window from 838.7 h at 3 regions differs by 9e-6 (the
        # artifact's V100 traces rebuilt with Debian's numpy and pandas).
        assert abs(float(r["cost_usd"]) / float(ref["cost_usd"]) - 1) < 2e-5, (r, ref)
        assert r["migrations"] == ref["migrations"], (r, ref)
    assert matched == len(published) == 83
    for which in ("test", "wide"):
        for r in runs(which):  # the whole bill adds the tick that completes the task, at most on-demand's price
            assert 0 < float(r["cost_full_usd"]) - float(r["cost_usd"]) <= 107.01 / 6 + 1e-6, r


def test_the_runs_cover_exactly_the_comparison_windows():
    for which in ("test", "wide"):
        have = [key(r["setting"], r["regions"], r["ratio"], r["start_h"]) for r in runs(which)]
        want = [key(setting, n, ratio, start) for setting, s in scaling.SETTINGS.items()
                for n in range(1, len(s["zones"]) + 1) for ratio, start in scaling.windows(setting, which)]
        assert len(have) == len(set(have)), which
        assert set(have) == set(want), f"{which}: re-run experiments/skynomad/run_artifact_policy.py"
        for setting in scaling.SETTINGS:
            theirs = scaling.skynomad_windows(setting, which)
            assert len(theirs) == sum(1 for k in want if k[0] == setting)
    assert all(r["deadline_met"] == "1" for r in runs("wide"))


def test_no_run_is_cheaper_than_our_optimum_beyond_the_accounting(cli):
    """Every 9th wide window of each region count: SkyNomad's whole bill in its simulator is at least spotsim's
    optimum less 1% (it is less by at most 0.52% on these windows, where its moves cost no transfer time:
    docs/validation.md#skynomad-optima),
    and on average above it by what an online policy leaves (SkyNomad's mean regret there: 5-18% on GCP, 17-45% on
    AWS), not by a price scale (the GCP trace is per GPU, SkyNomad bills 8)."""
    binary = os.environ["SPOTSIM_CLI"]  # the cli fixture has checked it
    sample = [r for i, r in enumerate(runs("wide")) if i % 9 == 0]
    with tempfile.TemporaryDirectory() as tmp:
        traces = {"gcp-h100": scaling.gcp_trace_x8(tmp), "aws-v100": "aws-v100-9-zones"}

        def optimum(r):
            s = scaling.SETTINGS[r["setting"]]
            result = scaling.run(binary, traces[r["setting"]], s["zones"][:int(r["regions"])], "on-demand",
                                 s["work_h"], float(r["ratio"]), float(r["start_h"]))
            return float(result["optimum_cost"])

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            ours = list(pool.map(optimum, sample))
    ratios = [float(r["cost_full_usd"]) / o for r, o in zip(sample, ours)]
    worst = min(range(len(sample)), key=lambda i: ratios[i])
    assert ratios[worst] > 0.99, (sample[worst], ours[worst])
    for setting in scaling.SETTINGS:
        mine = [x for r, x in zip(sample, ratios) if r["setting"] == setting]
        assert 1.02 < sum(mine) / len(mine) < 1.5, setting
    assert len(sample) > 200


def test_the_driver_says_what_is_missing_without_the_artifact(tmp_path):
    driver = DIRECTORY / "run_artifact_policy.py"
    result = subprocess.run([sys.executable, str(driver), "--setting", "gcp-h100", "--artifact", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert f"no SkyNomad artifact at {tmp_path}" in result.stderr
    assert "62b9aaa" in result.stderr

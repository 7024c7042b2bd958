"""spotsim.checkpoint_schedule(): the CLI's `simulate --checkpoint-schedule` table as a DataFrame, and the file it
writes replayed with checkpoint="schedule:PATH" (docs/policies.md#schedules)."""
import io

import pandas as pd
import pytest

import spotsim

JOB = {"work": "48h", "checkpoint_write": "5m", "restore": "0s"}


def test_the_dataframe_is_the_clis_table(cli):
    frame = spotsim.checkpoint_schedule(checkpoint="optimal-dp", **JOB)
    code, text, err = cli("simulate", "--checkpoint", "optimal-dp", "--work", "48h", "--checkpoint-write", "5m",
                          "--restore", "0s", "--checkpoint-schedule")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(text))
    assert list(frame.columns) == list(table.columns)
    assert len(frame) == len(table) > 3
    assert (frame["instance_age_s"] == table["instance_age_s"]).all()  # exact, to the millisecond
    for column in ("instance_age_h", "interval_h", "work_saved_h", "remaining_h"):
        assert (frame[column] - table[column]).abs().max() <= 5e-5 + 1e-9  # the CSV prints hours to 4 decimals
    assert frame["interval_h"].max() > 15  # the long interval of the quiet middle of the bathtub model


def test_a_written_schedule_replays_as_the_policy(tmp_path):
    path = tmp_path / "hazard.csv"
    spotsim.checkpoint_schedule(checkpoint="hazard", **JOB).to_csv(path, index=False)
    common = dict(policy="spot-only", replications=200, seed=3, **JOB)
    policy = spotsim.simulate(checkpoint="hazard", **common).runs
    replay = spotsim.simulate(checkpoint=f"schedule:{path}", **common).runs
    assert (policy["fingerprint"] == replay["fingerprint"]).all()
    assert (policy["cost_total"] == replay["cost_total"]).all()


def test_refused_as_the_cli_refuses(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("instance_age_s\n600\n300\n")
    with pytest.raises(spotsim.InputError, match="ages that increase"):
        spotsim.simulate(checkpoint=f"schedule:{bad}", replications=2, **JOB)
    with pytest.raises(spotsim.InputError, match="unknown policy"):
        spotsim.checkpoint_schedule(checkpoint="nope", **JOB)

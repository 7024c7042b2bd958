#!/usr/bin/env python3
"""Records what the ADRS/OpenEvolve Can't Be Late harness (lynnliu030/ADRS @ 2d7047e, its `simulator/main.py`, one
subprocess per run, as its evaluator runs it) says for each test strategy in tests/python/harness_strategies/ on a
small grid of the paper's windows, into tests/python/data/adrs_harness_runs.jsonl: the cost it prints, or that the
run failed. tests/python/test_harness.py then checks spotsim's harness runner against these, run for run.

Not run by the test suite (it needs the harness): a developer's tool.

  record_adrs_runs.py --simulator DIR [--stubs DIR] [--shared ../shared]

DIR is the harness's `openevolve/examples/ADRS/cant-be-late/simulator` (main.py and sky_spot/). --stubs is put first
on PYTHONPATH for modules the harness imports but never needs here (wandb, ray), which Debian does not package.
Window files are cut from the base traces in ../shared as the harnesses' own window files are (ticks
start_tick..end_tick of windows.csv, the encoding inverted: 1 = no spot), into a scratch folder named by the env (the
harness prices a trace by the device name in its path).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = ROOT / "tests" / "python" / "harness_strategies"
OUT = ROOT / "tests" / "python" / "data" / "adrs_harness_runs.jsonl"
PAIRS = ["us-west-2a_v100_1", "us-west-2b_k80_1"]
WINDOWS = [8, 99, 266]
DEADLINES = [52.0, 70.0]
OVERHEADS = [0.02, 0.1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--simulator", required=True)
    parser.add_argument("--stubs")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = parser.parse_args()
    shared = Path(args.shared)
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    windows = [r for r in csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv"))]
    env = dict(os.environ)
    if args.stubs:
        env["PYTHONPATH"] = args.stubs
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for pair in PAIRS:
            base = json.load(open(base_dir / f"{pair}.json"))
            for w in windows:
                if w["pair"] != pair or int(w["window"]) not in WINDOWS:
                    continue
                folder = Path(scratch) / pair
                folder.mkdir(exist_ok=True)
                data = [1 - x for x in base["data"][int(w["start_tick"]):int(w["end_tick"])]]
                json.dump({"metadata": {"gap_seconds": base["metadata"]["gap_seconds"]}, "data": data},
                          open(folder / f"{w['window']}.json", "w"))
        for strategy in sorted(STRATEGIES.glob("*.py")):
            for pair in PAIRS:
                for window in WINDOWS:
                    for deadline in DEADLINES:
                        for overhead in OVERHEADS:
                            cmd = [sys.executable, "main.py", f"--strategy-file={strategy}", "--env=trace",
                                   f"--trace-file={Path(scratch) / pair / f'{window}.json'}",
                                   "--task-duration-hours=48", f"--deadline-hours={deadline}",
                                   f"--restart-overhead-hours={overhead}", "--silent"]
                            run = subprocess.run(cmd, cwd=args.simulator, env=env, capture_output=True, text=True,
                                                 timeout=300)
                            cost = None
                            for line in run.stdout.splitlines():
                                if "mean:" in line:
                                    cost = float(line.split("mean:")[1].split(";")[0])
                            rows.append({"strategy": strategy.stem, "pair": pair, "window": window,
                                         "deadline_hours": deadline, "overhead_hours": overhead,
                                         "ok": run.returncode == 0 and cost is not None, "cost": cost})
                            print(rows[-1], flush=True)
    OUT.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} runs")


if __name__ == "__main__":
    main()

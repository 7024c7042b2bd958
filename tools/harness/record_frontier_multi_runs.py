#!/usr/bin/env python3
"""Records what Frontier-CS's multi-region Can't Be Late harness (FrontierCS/Frontier-CS @ 4d508c1,
research/problems/cant_be_late_multi/common/) says for each test strategy in tests/python/harness_strategies_multi/,
into tests/python/data/frontier_multi_harness_runs.jsonl: for two variants (high_tight_large, low_loose_small), every
run of the variant (the stage-1 run, then each scenario's windows) through the harness's own run_single_simulation
(the cost, or that the run failed and its message), and the score its evaluate_solution() gives (what the variant's
evaluator prints). tests/python/test_harness_multi.py checks spotsim.harness_multi against these, run for run.

Not run by the test suite (it needs the harness): a developer's tool. Each strategy is recorded in its own process.

  record_frontier_multi_runs.py --common DIR

DIR is the harness's research/problems/cant_be_late_multi/common, with its traces unpacked beside its simulator:
  tar -xzf DIR/real_traces.tar.gz -C DIR/cant-be-late-simulator/data
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = ROOT / "tests" / "python" / "harness_strategies_multi"
OUT = ROOT / "tests" / "python" / "data" / "frontier_multi_harness_runs.jsonl"
VARIANTS = [("high", 36.0, 0.20), ("low", 48.0, 0.05)]

CHILD = r"""
import json, logging, os, sys
from pathlib import Path
common = Path(sys.argv[1]); strategy = sys.argv[2]; variants = json.loads(sys.argv[3])
sys.path[:0] = [str(common), str(common / "cant-be-late-simulator")]
logging.disable(logging.CRITICAL)
import run_evaluator
from __init__ import HIGH_AVAILABILITY_SCENARIOS, LOW_AVAILABILITY_SCENARIOS, STAGE_1_SCENARIO, TASK_DURATION_HOURS
from sim_worker import run_single_simulation
data = str(common / "cant-be-late-simulator" / "data" / "converted_multi_region_aligned")
scenarios = {"high": HIGH_AVAILABILITY_SCENARIOS, "low": LOW_AVAILABILITY_SCENARIOS}
rows = []
for availability, deadline, overhead in variants:
    config = {"deadline": deadline, "duration": TASK_DURATION_HOURS, "overhead": overhead}
    for scenario in [STAGE_1_SCENARIO] + scenarios[availability]:
        for name in scenario["traces"]:
            files = [os.path.join(data, region, name) for region in scenario["regions"]]
            ok, cost, error = run_single_simulation(strategy, files, config)
            rows.append({"kind": "run", "availability": availability, "deadline_hours": deadline,
                         "overhead_hours": overhead, "scenario": scenario["name"], "window": int(name.split(".")[0]),
                         "ok": ok, "cost": cost if ok else None, "error": error or None})
    try:
        payload = run_evaluator.evaluate_solution(Path(strategy), Path("spec.json"), scenarios[availability],
                                                  deadline, overhead)
    except Exception as e:
        payload = {"error": str(e), "score": 0}
    rows.append({"kind": "score", "availability": availability, "deadline_hours": deadline,
                 "overhead_hours": overhead, "payload": payload})
print(json.dumps(rows))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--common", required=True)
    args = parser.parse_args()
    rows = []
    for strategy in sorted(STRATEGIES.glob("*.py")):
        run = subprocess.run([sys.executable, "-c", CHILD, args.common, str(strategy), json.dumps(VARIANTS)],
                             capture_output=True, text=True, timeout=3600)
        if run.returncode != 0:
            sys.exit(f"{strategy.name}: the harness's process failed:\n{run.stderr[-3000:]}")
        for row in json.loads(run.stdout.strip().splitlines()[-1]):
            rows.append({"strategy": strategy.stem, **row})
        print(strategy.stem, sum(r["kind"] == "run" for r in rows if r["strategy"] == strategy.stem), "runs",
              flush=True)
    OUT.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"wrote {OUT.relative_to(ROOT)}: {sum(r['kind'] == 'run' for r in rows)} runs")


if __name__ == "__main__":
    main()

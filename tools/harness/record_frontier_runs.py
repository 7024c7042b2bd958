#!/usr/bin/env python3
"""Records what the Frontier-CS single-region Can't Be Late harness (FrontierCS/Frontier-CS @ 4d508c1,
research/problems/cant_be_late/common/: run_evaluator.py, cbl_evaluator.py, sim_worker.py and the
cant-be-late-simulator/ package beside them) says for each test strategy in tests/python/harness_strategies_frontier/
on a small grid of its windows, into tests/python/data/frontier_harness_runs.jsonl. tests/python/
test_harness_frontier.py then checks spotsim's harness runner (StrategyFile(path, entry="frontier")) against these,
run for run.

Not run by the test suite (it needs the harness's code): a developer's tool.

  record_frontier_runs.py --common DIR [--stubs DIR] [--shared ../shared]

DIR is the harness's research/problems/cant_be_late/common folder, e.g. extracted from a mirror with
  git archive HEAD research/problems/cant_be_late | tar -x -C /tmp/fcs
Each strategy file is evaluated in a fresh interpreter with DIR on sys.path, through the harness's own functions, in
the order its evaluate() calls them: run_evaluator.load_and_validate_solution (the checks on the file's Solution
class), cbl_evaluator.evaluate_stage1 (compiles, looks for class/Strategy/_step), then one
sim_worker.run_single_simulation per run (Solution(args), solve(spec), TraceEnv, SingleTask, simulate()), with the
job configs as the harness's common/__init__.py writes them (duration 48, deadline 52 or 70, overhead 0.05 or 0.2).
A file the checks reject fails every run there (the harness stops before running any); its record keeps that error
and, as worker_ok/worker_cost, what run_single_simulation alone gives. --stubs goes first on PYTHONPATH for modules
the harness imports but Debian lacks (sim_worker already stands in for wandb itself; numpy and tqdm are needed).

The grid: 2 envs (us-west-2a_v100_1, us-west-2b_k80_1) x windows 8, 99, 266 x deadlines 52, 70 h x changeovers
0.05, 0.2 h. Window files are cut from the base traces in ../shared as the harnesses' own are (ticks
start_tick..end_tick of windows.csv, the encoding inverted: 1 = no spot), into a scratch tree laid out as the
harness's data folder (real/ddl=search+task=48+overhead=0.02/real/<env>/traces/random_start/<id>.json): the
harness prices a run by the device name in the trace's path and names the trace in its error messages.

Each output line: strategy, pair, window, deadline_hours, overhead_hours, ok, cost (None when failed), error (the
harness's text, when failed), failed_at ("validation" or "run", when failed).
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
STRATEGIES = ROOT / "tests" / "python" / "harness_strategies_frontier"
OUT = ROOT / "tests" / "python" / "data" / "frontier_harness_runs.jsonl"
PAIRS = ["us-west-2a_v100_1", "us-west-2b_k80_1"]
WINDOWS = [8, 99, 266]
DEADLINES = [52, 70]       # the harness's job configs hold whole hours (int), duration 48
OVERHEADS = [0.05, 0.2]    # SMALL_OVERHEAD, LARGE_OVERHEAD
TRACE_FOLDER = "real/ddl=search+task=48+overhead=0.02/real/{pair}/traces/random_start"


def cut_windows(shared, scratch):
    """Writes each (pair, window) file of the grid under scratch; returns {(pair, window): path}."""
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    paths = {}
    for pair in PAIRS:
        base = json.load(open(base_dir / f"{pair}.json"))
        folder = scratch / TRACE_FOLDER.format(pair=pair)
        folder.mkdir(parents=True, exist_ok=True)
        for w in csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv")):
            if w["pair"] != pair or int(w["window"]) not in WINDOWS:
                continue
            data = [1 - x for x in base["data"][int(w["start_tick"]):int(w["end_tick"])]]
            path = folder / f"{w['window']}.json"
            json.dump({"metadata": {"gap_seconds": base["metadata"]["gap_seconds"]}, "data": data}, open(path, "w"))
            paths[(pair, int(w["window"]))] = path
    assert len(paths) == len(PAIRS) * len(WINDOWS), paths
    return paths


def evaluate_file(common, strategy, traces, out):
    """(In the child interpreter.) One strategy file through the harness's functions; writes its runs to `out`."""
    sys.path.insert(0, str(common))
    import run_evaluator  # noqa: E402 -- puts the simulator package on sys.path, as the variants' evaluator.py do
    import cbl_evaluator  # noqa: E402
    import sim_worker  # noqa: E402

    spec = Path(common).parent / "high_availability_tight_deadline_small_overhead/resources/submission_spec.json"
    problem = None
    try:
        run_evaluator.load_and_validate_solution(Path(strategy), spec)
        stage1 = cbl_evaluator.evaluate_stage1(str(strategy))
        if stage1.get("runs_successfully", 0) != 1.0:
            problem = stage1.get("error", "Stage 1 failed")
    except Exception as error:  # noqa: BLE001 -- run_evaluator.main reports it and the file scores 0
        problem = f"{type(error).__name__}: {error}"
    rows = []
    for pair in PAIRS:
        for window in WINDOWS:
            for deadline in DEADLINES:
                for overhead in OVERHEADS:
                    config = {"duration": 48, "deadline": deadline, "overhead": overhead}
                    ok, cost, error = sim_worker.run_single_simulation(str(strategy), str(traces[(pair, window)]),
                                                                       config)
                    row = {"strategy": Path(strategy).stem, "pair": pair, "window": window,
                           "deadline_hours": float(deadline), "overhead_hours": overhead}
                    if problem is not None:
                        row.update(ok=False, cost=None, error=problem, failed_at="validation", worker_ok=ok,
                                   worker_cost=cost if ok else None)
                    elif ok:
                        row.update(ok=True, cost=cost)
                    else:
                        row.update(ok=False, cost=None, error=error, failed_at="run")
                    rows.append(row)
    Path(out).write_text("".join(json.dumps(r) + "\n" for r in rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--common", required=True, help="the harness's research/problems/cant_be_late/common")
    parser.add_argument("--stubs")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--child", nargs=3, metavar=("STRATEGY", "TRACES", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        strategy, traces, out = args.child
        traces = {(p, int(w)): path for p, w, path in json.loads(traces)}
        evaluate_file(Path(args.common).resolve(), Path(strategy), traces, out)
        return
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        traces = cut_windows(Path(args.shared), scratch / "data")
        env = dict(os.environ, CBL_LOG_LEVEL="ERROR", GEPA_EVAL_TMPDIR=str(scratch / "sim_out"))
        if args.stubs:
            env["PYTHONPATH"] = os.pathsep.join([args.stubs, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        listed = json.dumps([[p, w, str(path)] for (p, w), path in traces.items()])
        for strategy in sorted(STRATEGIES.glob("*.py")):
            out = scratch / f"{strategy.stem}.jsonl"
            done = subprocess.run([sys.executable, __file__, "--common", args.common, "--child", str(strategy),
                                   listed, str(out)], env=env, cwd=scratch, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, timeout=1800)
            if done.returncode != 0:
                sys.exit(f"{strategy.name}: the harness's code did not run:\n{done.stderr}")
            runs = [json.loads(line) for line in open(out)]
            for r in runs:  # no machine's paths in the record
                if r.get("error"):
                    r["error"] = r["error"].replace(str(scratch), "<scratch>").replace(str(ROOT), "<repo>")
            print(f"{strategy.stem}: {sum(r['ok'] for r in runs)} of {len(runs)} ok", flush=True)
            rows += runs
    OUT.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} runs")


if __name__ == "__main__":
    main()

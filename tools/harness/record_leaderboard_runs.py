#!/usr/bin/env python3
"""Records what the ADRS-Leaderboard Can't Be Late harness (UCB-ADRS/ADRS-Leaderboard @ f856497,
problems/cant_be_late/: resources/run_evaluator_real30.py, resources/evaluator/evaluator_real30.py and
sim_worker.py, and the resources/cant-be-late-simulator/ package) says for each test strategy in
tests/python/harness_strategies/ and tests/python/harness_strategies_leaderboard/ on a small grid of its windows, into
tests/python/data/leaderboard_harness_runs.jsonl. tests/python/test_harness_leaderboard.py then checks spotsim's
harness runner (StrategyFile(path) with the entry the adrs-leaderboard profile uses) against these, run for run.

Not run by the test suite (it needs the harness's code): a developer's tool.

  record_leaderboard_runs.py --problem DIR [--stubs DIR] [--shared ../shared]

DIR is the Leaderboard's problems/cant_be_late folder, e.g. extracted from a mirror with
  git --git-dir=MIRROR archive f856497 problems/cant_be_late | tar -x -C /tmp/adrs_lb
  (then DIR = /tmp/adrs_lb/problems/cant_be_late)

How it runs the harness's own code. The Leaderboard evaluates a strategy file in process: evaluate_stage2() (no
stage-1 check of the source on this path) hands each run to run_single_simulation(program_path, trace_file, config)
in a pool of forked workers, and that function imports the file once per worker, takes the module's first Strategy
subclass, builds it per run with strategy_cls._from_args(parser) and calls simulate(). Here each strategy file gets a
fresh interpreter (as a fresh worker) that puts the simulator package and the evaluator folder on sys.path (as the
harness's venv and run_evaluator_real30.py do), imports evaluator_real30, points its PROJECT_ROOT, ENV_PATHS and
CHANGEOVER_DELAYS at the scratch data and this grid, selects the windows with its own build_trace_pool(), and calls
sim_worker.run_single_simulation for every run, one after another, in the order evaluate_stage2() submits them
(deadline, then changeover, then env, then window file as sorted). The job configs are the evaluator's own dicts
(duration 48, deadline 52 or 70, as ints). Nothing needs stubbing on Debian: sim_worker stands in for wandb itself,
and the built-in strategy modules whose packages are missing (pulp) are skipped by the package's own __init__;
--stubs, if given, goes first on PYTHONPATH all the same.

The grid: 2 envs (us-west-2a_v100_1, us-west-2b_k80_1) x windows 8, 99, 266 x deadlines 52, 70 h x changeovers 0.02,
0.1 h (as tools/harness/record_adrs_runs.py). Window files are cut from the base traces in ../shared as the
harnesses' own are (ticks start_tick..end_tick of windows.csv, the encoding inverted: 1 = no spot) into a scratch
tree laid out as the Leaderboard's data folder (data/real/ddl=search+task=48+overhead=<0.02|0.10>/real/<env>/traces/
random_start/<id>.json, one folder per changeover, as build_trace_pool reads them); the harness prices a run by the
device name in the path. When DIR holds resources/real_traces.tar.gz, every cut window is first compared with the
harness's own file (the same gap and the same ticks) and the tool stops on any difference.

Each output line: strategy, pair, window, deadline_hours, overhead_hours, ok, cost (None when failed), error (when
failed: the harness's message, its first line and the traceback's last line, with scratch and repository paths
replaced by <scratch> and <leaderboard>).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRATEGY_FOLDERS = [ROOT / "tests" / "python" / "harness_strategies",
                    ROOT / "tests" / "python" / "harness_strategies_leaderboard"]
OUT = ROOT / "tests" / "python" / "data" / "leaderboard_harness_runs.jsonl"
PAIRS = ["us-west-2a_v100_1", "us-west-2b_k80_1"]
WINDOWS = [8, 99, 266]
DEADLINES = [52, 70]     # JOB_CONFIGS: whole hours (int), duration 48
OVERHEADS = [0.02, 0.1]  # two of CHANGEOVER_DELAYS (0.02, 0.05, 0.1)
TRACE_FOLDER = "real/ddl=search+task=48+overhead={overhead:.2f}/real/{pair}/traces/random_start"


def cut_windows(shared, data_dir):
    """Writes each (changeover, pair, window) file of the grid under data_dir; returns their relative paths."""
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    written = []
    rows = list(csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv")))
    for pair in PAIRS:
        base = json.load(open(base_dir / f"{pair}.json"))
        for w in rows:
            if w["pair"] != pair or int(w["window"]) not in WINDOWS:
                continue
            data = [1 - x for x in base["data"][int(w["start_tick"]):int(w["end_tick"])]]
            for overhead in OVERHEADS:
                relative = f"{TRACE_FOLDER.format(overhead=overhead, pair=pair)}/{w['window']}.json"
                (data_dir / relative).parent.mkdir(parents=True, exist_ok=True)
                json.dump({"metadata": {"gap_seconds": base["metadata"]["gap_seconds"]}, "data": data},
                          open(data_dir / relative, "w"))
                written.append(relative)
    assert len(written) == len(PAIRS) * len(WINDOWS) * len(OVERHEADS), written
    return written


def check_against_tarball(tarball, data_dir, relatives):
    """Each cut window must hold what the harness's own window file holds."""
    wanted = set(relatives)
    seen = set()
    with tarfile.open(tarball) as archive:
        for member in archive:
            if member.name not in wanted:
                continue
            theirs = json.load(archive.extractfile(member))
            ours = json.load(open(data_dir / member.name))
            if theirs["metadata"]["gap_seconds"] != ours["metadata"]["gap_seconds"] or theirs["data"] != ours["data"]:
                sys.exit(f"{member.name}: the window cut from the shared data differs from the harness's file")
            seen.add(member.name)
    if seen != wanted:
        sys.exit(f"not in {tarball}: {sorted(wanted - seen)}")


def evaluate_file(problem, sim_root, strategy, out):
    """(In the child interpreter.) Every run of the grid through the harness's own functions; writes them to `out`."""
    resources = Path(problem) / "resources"
    # The harness's venv has the simulator project installed (uv sync); run_evaluator_real30.evaluate_artifact puts
    # the evaluator folder and resources/ first on sys.path before it imports evaluator_real30.
    sys.path.insert(0, str(resources / "cant-be-late-simulator"))
    sys.path.insert(0, str(resources / "evaluator"))
    sys.path.insert(0, str(resources))
    import evaluator_real30  # noqa: E402 -- imports sim_worker, which imports sky_spot.simulate
    import sim_worker  # noqa: E402

    evaluator_real30.PROJECT_ROOT = str(sim_root)
    evaluator_real30.ENV_PATHS = list(PAIRS)
    evaluator_real30.CHANGEOVER_DELAYS = list(OVERHEADS)
    assert [j["deadline"] for j in evaluator_real30.JOB_CONFIGS] == DEADLINES, evaluator_real30.JOB_CONFIGS
    pool = evaluator_real30.build_trace_pool(max(j["deadline"] for j in evaluator_real30.JOB_CONFIGS))
    configs = [{"duration": j["duration"], "deadline": j["deadline"], "overhead": d}
               for j in evaluator_real30.JOB_CONFIGS for d in evaluator_real30.CHANGEOVER_DELAYS]
    program = os.path.abspath(strategy)
    rows = []
    for config in configs:
        for pair, traces in pool[config["overhead"]].items():
            assert sorted(int(Path(t).stem) for t in traces) == WINDOWS, traces
            for trace in traces:
                ok, cost, error = sim_worker.run_single_simulation(program, trace, config)
                row = {"strategy": Path(strategy).stem, "pair": pair, "window": int(Path(trace).stem),
                       "deadline_hours": float(config["deadline"]), "overhead_hours": config["overhead"],
                       "ok": bool(ok), "cost": float(cost) if ok else None, "error": None}
                if not ok:
                    lines = [line for line in str(error).splitlines() if line.strip()]
                    row["error"] = "\n".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines)
                rows.append(row)
    Path(out).write_text("".join(json.dumps(r) + "\n" for r in rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problem", required=True, help="the Leaderboard's problems/cant_be_late folder")
    parser.add_argument("--stubs")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--child", nargs=3, metavar=("STRATEGY", "SIM_ROOT", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    problem = Path(args.problem).resolve()
    if args.child:
        strategy, sim_root, out = args.child
        evaluate_file(problem, Path(sim_root), strategy, out)
        return
    strategies = sorted((p for folder in STRATEGY_FOLDERS for p in folder.glob("*.py")), key=lambda p: p.stem)
    stems = [p.stem for p in strategies]
    assert len(set(stems)) == len(stems), f"two test strategies share a name: {stems}"
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sim_root = scratch / "cant-be-late-simulator"
        relatives = cut_windows(Path(args.shared), sim_root / "data")
        tarball = problem / "resources" / "real_traces.tar.gz"
        if tarball.is_file():
            check_against_tarball(tarball, sim_root / "data", relatives)
            print(f"the {len(relatives)} cut windows equal the harness's own files", flush=True)
        env = dict(os.environ, CBL_LOG_LEVEL="ERROR", GEPA_EVAL_TMPDIR=str(scratch / "sim_out"))
        if args.stubs:
            env["PYTHONPATH"] = os.pathsep.join([args.stubs, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        for strategy in strategies:
            out = scratch / f"{strategy.stem}.jsonl"
            done = subprocess.run([sys.executable, __file__, "--problem", str(problem), "--child", str(strategy),
                                   str(sim_root), str(out)], env=env, cwd=scratch, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, timeout=1800)
            if done.returncode != 0:
                sys.exit(f"{strategy.name}: the harness's code did not run:\n{done.stderr}")
            runs = [json.loads(line) for line in open(out)]
            for r in runs:  # no machine's paths in the record
                if r.get("error"):
                    r["error"] = (r["error"].replace(str(scratch), "<scratch>").replace(str(problem), "<leaderboard>")
                                  .replace(str(ROOT), "<repo>"))
            print(f"{strategy.stem}: {sum(r['ok'] for r in runs)} of {len(runs)} ok", flush=True)
            rows += runs
    OUT.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} runs")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Records what GEPA's Can't Be Late example (gepa-ai/gepa @ b265bf9c, examples/adrs/can_be_late/: main.py's
evaluate(), utils/simulation.py's run_simulation(), utils/dataset.py's load_trace_dataset() and the simulator it
vendors in utils/simulator/) says for each test strategy in tests/python/harness_strategies/ on a small grid of its
test windows, into tests/python/data/gepa_harness_runs.jsonl. tests/python/test_harness_gepa.py then checks spotsim's
harness runner (StrategyFile(path) with the entry the gepa-test profile uses, and score("GEPA", ...)) against these,
run for run, and the gepa-test profile's grid against GEPA's own test split.

Not run by the test suite (it needs GEPA's code): a developer's tool.

  record_gepa_runs.py --example DIR [--dataset-root REAL] [--shared ../shared]

DIR is GEPA's examples/adrs/can_be_late folder, e.g. extracted from a mirror with
  git --git-dir=MIRROR archive b265bf9c examples/adrs | tar -x -C /tmp/gepa
  (then DIR = /tmp/gepa/examples/adrs/can_be_late)
REAL, if given, is GEPA's own dataset root (utils/simulator/real, which GEPA's README has one extract from the ADRS
repository's simulator/real_traces.tar.gz): every window cut here is first compared with GEPA's file (the same gap,
the same ticks) and the tool stops on any difference. It takes about 7 minutes (one process at a time; 1,536
samples of about 0.25 s each).

How it runs GEPA's own code. GEPA scores a candidate per sample with main.evaluate(candidate, example): a check of the
source (it must compile and name `class`, `Strategy` and `_step`), then one subprocess per sample,
`python utils/simulator/main.py --strategy-file=<tmp>/strategy.py --env=trace --trace-file=... --task-duration-hours=
--deadline-hours= --restart-overhead-hours= --silent --output-dir=<tmp>` (cwd utils/simulator, 300 s timeout); the
sample's score is minus the number after the first "mean:" of its stdout, or -100,000 when the check fails, the
process exits non-zero, prints no "mean:", or times out. Here main.py is imported as a module (its optimisation is
never started) with stand-ins for the two gepa modules it imports at the top (gepa.optimize_anything, whose SideInfo
is a dict, and gepa.proposer.reflective_mutation.base, for the LLM helper), and evaluate() is called for every sample
of the grid, one after another. The vendored simulator imports wandb unconditionally (sky_spot/simulate.py), which
gepa[full] installs and Debian does not: a stand-in wandb (run = None, as a process that never called wandb.init()
has) goes on the samples' PYTHONPATH. The samples are GEPA's: load_trace_dataset(root)["test"] on a scratch dataset
root laid out as GEPA's (ddl=search+task=48+overhead=0.20/real/<env>/traces/random_start/<id>.json, the only folder
its test split reads) holding the 120 test windows, cut from the base traces in ../shared as the harnesses' own are
(ticks start_tick..end_tick of windows.csv, the encoding inverted: 1 = no spot). Its 1,080 samples, in its order, are
the file's first line ({"gepa_test_split": [[env, window, deadline_hours, overhead_hours], ...], ...}), with the
scores evaluate() gives each of them for the files in FULL_SPLIT ({"full_split_scores": {stem: [score, ...]}}; their
mean is the test score GEPA's main.py logs).

The candidates: each file in tests/python/harness_strategies/, then the VARIANTS below, programs derived from one of
those files by text replacements that exercise what GEPA's code does and the files do not (main.py's parser and
namespace, the absolute --trace-file, the check of the source, the registry of GEPA's vendored package, the cost
simulate() reads from the strategy's info(), the JSON it writes); the first line of the file also holds their
derivation ({"variants": {name: {"base": stem, "replace": [[old, new], ...]}}}) so that the test builds the same
programs.

The grid of the recorded runs is tools/harness/record_adrs_runs.py's: 2 envs (us-west-2a_v100_1, us-west-2b_k80_1) x
windows 8, 99, 266 x deadlines 52, 70 h x changeovers 0.02, 0.1 h. Each sample is the test split's sample of that
env, window and deadline (its trace file and its config dict, duration and deadline as GEPA's ints), with the
changeover set; 0.1 h is not one of GEPA's (0.02, 0.2, 0.4), but evaluate() passes any config through, and it keeps
this record comparable run for run with the ADRS one.

Each further line: strategy, pair, window, deadline_hours, overhead_hours, ok, cost (None when failed), score (the
sample's score as evaluate() returns it: -cost, or -100000.0), error (when failed: the first and last line of the
message GEPA keeps, which is the first 500 characters of the sample's stderr, or of its stdout when stderr is empty;
scratch and example paths replaced by <scratch> and <gepa>).
"""
import argparse
import csv
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = ROOT / "tests" / "python" / "harness_strategies"
OUT = ROOT / "tests" / "python" / "data" / "gepa_harness_runs.jsonl"
PAIRS = ["us-west-2a_v100_1", "us-west-2b_k80_1"]
WINDOWS = [8, 99, 266]
DEADLINES = [52.0, 70.0]
OVERHEADS = [0.02, 0.1]
TEST_FOLDER = "ddl=search+task=48+overhead=0.20/real/{env}/traces/random_start"
TEST_ENVS = ["us-west-2a_k80_1", "us-west-2a_v100_1", "us-west-2b_k80_1", "us-west-2b_v100_1"]
FULL_SPLIT = ["leans_on_override"]  # also scored on every sample of the test split, as GEPA scores a program

# Candidates GEPA would score that exercise what the files in harness_strategies/ do not: each is
# harness_strategies/<base>.py with the (old, new) text replacements applied in order (the record keeps this
# derivation; the test derives the same programs from it).
PARSE = "        args, _ = parser.parse_known_args()\n"
STEP = ("    def _step(self, last_cluster_type, has_spot):\n"
        "        return ClusterType.SPOT if has_spot else ClusterType.NONE\n")
VARIANTS = {
    # main.py's parser has no --silent, which the command line holds: parse_args() exits 2 (every sample fails).
    "parse_args": ("leans_on_override", [(PARSE, "        args = parser.parse_args()\n")]),
    # The namespace a strategy's _from_args gets: main.py's options and TraceEnv's, nothing else.
    "main_namespace": ("leans_on_override", [(PARSE, PARSE + (
        "        assert sorted(vars(args)) == ['checkpoint_size_gb', 'config', 'deadline_hours', 'env', "
        "'env_start_hours', 'output_dir', 'restart_overhead_hours', 'run_scenarios', 'scenarios_config', 'strategy', "
        "'strategy_file', 'task_duration_hours', 'trace_file'], sorted(vars(args))\n"
        "        assert (args.strategy, args.env_start_hours, args.config, args.scenarios_config, args.run_scenarios, "
        "args.env, args.checkpoint_size_gb) == ('strawman', 0, None, None, None, 'trace', 50.0), vars(args)\n"
        "        assert isinstance(args.output_dir, str) and args.output_dir, args.output_dir\n"))]),
    # --trace-file names the sample's window file (absolute; 1 = no spot): a strategy can read ahead in it.
    "reads_trace_file": ("leans_on_override", [(STEP, (
        "    def reset(self, env, task):\n"
        "        super().reset(env, task)\n"
        "        import json, os\n"
        "        assert os.path.isabs(self.args.trace_file), self.args.trace_file\n"
        "        with open(self.args.trace_file) as f:\n"
        "            self.no_spot = json.load(f)['data']\n"
        "\n"
        "    def _step(self, last_cluster_type, has_spot):\n"
        "        t = self.env.tick\n"
        "        assert self.no_spot[t] == (0 if has_spot else 1), (t, has_spot)\n"
        "        if not has_spot and all(self.no_spot[t:t + 6]):\n"
        "            return ClusterType.ON_DEMAND\n"
        "        return ClusterType.SPOT if has_spot else ClusterType.NONE\n"))]),
    # GEPA's check of the source before any sample: no "_step" in the text, every sample fails (the class has one).
    "hides_step_name": ("leans_on_override", [
        ("    def _step(self, last_cluster_type, has_spot):\n", "    def step_(self, last_cluster_type, has_spot):\n"),
        ("        return cls(args)\n",
         "        return cls(args)\n\n\nsetattr(LeansOnOverride, '_st' 'ep', LeansOnOverride.step_)\n")]),
    # The only NAME GEPA's registry holds besides 'abstract': its vendored package imports no built-in strategy.
    "named_multi_region_base": ("leans_on_override", [('NAME = "leans_on_override"', 'NAME = "multi_region_base"')]),
    # simulate() takes the run's cost from the last tick's {**env.info(), **strategy.info()}: its "Cost" wins.
    "reports_own_cost": ("leans_on_override", [(STEP, STEP + (
        "\n"
        "    def info(self):\n"
        "        return {**super().info(), 'Cost': 1.25}\n"))]),
    # simulate() writes vars(args) and every tick's info as JSON: a value JSON cannot hold fails the sample.
    "unserialisable_args": ("leans_on_override", [(PARSE, PARSE + "        args.seen = {1, 2}\n")]),
    "unserialisable_info": ("leans_on_override", [(STEP, STEP + (
        "\n"
        "    def info(self):\n"
        "        return {**super().info(), 'seen': {1, 2}}\n"))]),
}


def variant_program(name, folder=STRATEGIES, variants=VARIANTS):
    base, replacements = variants[name]
    text = (folder / f"{base}.py").read_text()
    for old, new in replacements:
        assert text.count(old) == 1, (name, old)
        text = text.replace(old, new)
    return text


# Stand-ins for what main.py and the simulator import but a sample never uses.
STANDINS = {
    "gepa/__init__.py": "",
    "gepa/optimize_anything.py": (
        "SideInfo = dict\n"
        "class _Unused:\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        raise RuntimeError('record_gepa_runs: no optimisation is run')\n"
        "EngineConfig = GEPAConfig = ReflectionConfig = TrackingConfig = _Unused\n"
        "def optimize_anything(*args, **kwargs):\n"
        "    raise RuntimeError('record_gepa_runs: no optimisation is run')\n"),
    "gepa/proposer/__init__.py": "",
    "gepa/proposer/reflective_mutation/__init__.py": "",
    "gepa/proposer/reflective_mutation/base.py": "LanguageModel = object\n",
}
WANDB_STANDIN = ("run = None\n"
                 "def init(*args, **kwargs):\n    return None\n"
                 "def log(*args, **kwargs):\n    pass\n"
                 "class _Config(dict):\n    def update(self, *args, **kwargs):\n        pass\n"
                 "config = _Config()\n")


def cut_test_windows(shared, dataset_root):
    """Writes GEPA's 120 test windows (4 envs x the 30 ids of windows.csv) under dataset_root; their relative paths."""
    base_dir = shared / "data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022"
    written, bases = [], {}
    for w in csv.DictReader(open(shared / "data/validation/policy-harnesses/windows.csv")):
        env = w["pair"]
        if env not in TEST_ENVS:
            continue
        if env not in bases:
            bases[env] = json.load(open(base_dir / f"{env}.json"))
        base = bases[env]
        relative = f"{TEST_FOLDER.format(env=env)}/{w['window']}.json"
        (dataset_root / relative).parent.mkdir(parents=True, exist_ok=True)
        data = [1 - x for x in base["data"][int(w["start_tick"]):int(w["end_tick"])]]
        json.dump({"metadata": {"gap_seconds": base["metadata"]["gap_seconds"]}, "data": data},
                  open(dataset_root / relative, "w"))
        written.append(relative)
    assert len(written) == 4 * 30, len(written)
    return written


def check_against_gepa_data(real, dataset_root, relatives):
    for relative in relatives:
        theirs_path = Path(real) / relative
        if not theirs_path.is_file():
            sys.exit(f"{theirs_path}: not in GEPA's dataset root")
        theirs = json.load(open(theirs_path))
        ours = json.load(open(dataset_root / relative))
        if theirs["metadata"]["gap_seconds"] != ours["metadata"]["gap_seconds"] or theirs["data"] != ours["data"]:
            sys.exit(f"{relative}: the window cut from the shared data differs from GEPA's file")


def import_gepa_main(example, standins):
    """GEPA's main.py as a module (utils/ importable as when it runs as a script; the gepa stand-ins first)."""
    sys.path.insert(0, str(example))
    sys.path.insert(0, str(standins))
    spec = importlib.util.spec_from_file_location("gepa_cant_be_late_main", example / "main.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample_key(sample):
    path = Path(sample["trace_file"])
    return path.parts[-4], int(path.stem), float(sample["config"]["deadline"]), float(sample["config"]["overhead"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--example", required=True, help="GEPA's examples/adrs/can_be_late folder")
    parser.add_argument("--dataset-root", help="GEPA's own utils/simulator/real, to compare the cut windows with")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = parser.parse_args()
    example = Path(args.example).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch).resolve()
        dataset_root = scratch / "real"
        relatives = cut_test_windows(Path(args.shared), dataset_root)
        if args.dataset_root:
            check_against_gepa_data(args.dataset_root, dataset_root, relatives)
            print(f"the {len(relatives)} cut test windows equal GEPA's own files", flush=True)
        standins = scratch / "standins"
        for relative, text in STANDINS.items():
            (standins / relative).parent.mkdir(parents=True, exist_ok=True)
            (standins / relative).write_text(text)
        sample_standins = scratch / "sample_standins"
        (sample_standins / "wandb").mkdir(parents=True)
        (sample_standins / "wandb" / "__init__.py").write_text(WANDB_STANDIN)
        os.environ["PYTHONPATH"] = str(sample_standins)  # (run_simulation's subprocess inherits this environment)
        os.environ["TMPDIR"] = str(scratch / "tmp")  # GEPA's strategy.py copies and --output-dir folders
        (scratch / "tmp").mkdir()
        tempfile.tempdir = None
        gepa = import_gepa_main(example, standins)

        test = gepa.load_trace_dataset(str(dataset_root))["test"]
        split = [list(sample_key(s)) for s in test]
        assert len(split) == 1080, len(split)
        by_key = {}
        for sample in test:
            env, window, deadline, _ = sample_key(sample)
            by_key.setdefault((env, window, deadline), sample)
        rows = []
        programs = [(p.stem, p.read_text()) for p in sorted(STRATEGIES.glob("*.py"))]
        programs += [(name, variant_program(name)) for name in VARIANTS]
        for stem, program in programs:
            candidate = {"program": program}
            for pair in PAIRS:
                for window in WINDOWS:
                    for deadline in DEADLINES:
                        for overhead in OVERHEADS:
                            base = by_key[(pair, window, deadline)]
                            example_ = {"trace_file": base["trace_file"], "config": dict(base["config"],
                                                                                         overhead=overhead)}
                            score, info = gepa.evaluate(candidate, example_)
                            ok = "Error" not in info
                            row = {"strategy": stem, "pair": pair, "window": window,
                                   "deadline_hours": deadline, "overhead_hours": overhead, "ok": ok,
                                   "cost": -score if ok else None, "score": score, "error": None}
                            if not ok:
                                lines = [line for line in str(info["Error"]).splitlines() if line.strip()]
                                text = "\n".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines)
                                row["error"] = (text.replace(str(scratch), "<scratch>").replace(str(example), "<gepa>")
                                                .replace(str(ROOT), "<repo>"))
                            rows.append(row)
            runs = rows[-24:]
            print(f"{stem}: {sum(r['ok'] for r in runs)} of {len(runs)} ok; GEPA's mean score "
                  f"{sum(r['score'] for r in runs) / len(runs):.6f}", flush=True)
        full = {}
        for stem in FULL_SPLIT:
            candidate = {"program": (STRATEGIES / f"{stem}.py").read_text()}
            full[stem] = [gepa.evaluate(candidate, sample)[0] for sample in test]
            print(f"{stem} on the whole test split: GEPA's test score {sum(full[stem]) / len(full[stem]):.6f}",
                  flush=True)
    header = {"gepa_test_split": split, "full_split_scores": full,
              "variants": {name: {"base": base, "replace": replacements}
                           for name, (base, replacements) in VARIANTS.items()}}
    OUT.write_text(json.dumps(header) + "\n" + "".join(json.dumps(r) + "\n" for r in rows))
    print(f"wrote {OUT.relative_to(ROOT)}: the test split ({len(split)} samples) and {len(rows)} runs")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Families of hostile cases (docs/testing.md#catalogue), generated rather than listed: every command that writes an
output x every destination that is not a plain new file; bytes that are not UTF-8 in every string input; shell
metacharacters in every path that reaches a generated script; out-of-range answers from every plugin and Python
policy callback. The cases go to tests/hostile/cases/family_*.json, which run_catalogue.py runs like any other.

    tests/hostile/families.py           rewrite the family files
    tests/hostile/families.py --check   exit 1 when a committed family file is not what this script generates
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LATIN1 = "\udce9"  # the byte 0xE9 (Latin-1 e-acute) as the runner passes it: not UTF-8

# Commands that write one output, with the option naming it: (name, argv before the output, the output option,
# argv after, files the command reads, commands to run first).
SPEC = ('{"format": "spotsim-experiment", "version": 1, "name": "s", "replications": 3, "seed": 2, '
        '"traces": ["aws-us-west-2-v100"], "policies": ["greedy"], "job": {"work_hours": 4, "deadline_hours": 8}}')
WRITERS = [
    ("simulate-json", ["spotsim", "simulate", "-n", "3", "--threads", "1", "-f", "json"], "-o", [], {}, []),
    ("simulate-csv", ["spotsim", "simulate", "-n", "3", "--threads", "1", "-f", "csv"], "-o", [], {}, []),
    ("simulate-timeline", ["spotsim", "simulate", "-n", "3", "--threads", "1", "-o", "{dir}/result.json"],
     "--timeline", [], {}, []),
    ("campaign", ["spotsim", "campaign", "--trials", "2", "--trial-work", "1h", "-r", "2", "--threads", "1",
                  "--managed-catalogue", "none", "-f", "json"], "-o", [], {}, []),
    ("report", ["spotsim", "report", "{dir}/in.json"], "-o", [], {},
     [["spotsim", "simulate", "-n", "3", "--threads", "1", "-o", "{dir}/in.json"]]),
    ("trace-convert", ["spotsim", "trace", "convert", "{repo}/traces/library/us-west1.json"], "-o", [], {}, []),
    ("trace-inspect", ["spotsim", "trace", "inspect", "{repo}/traces/library/us-west1.json", "-f", "json"], "-o",
     [], {}, []),
    ("bound", ["spotsim", "bound", "--trace", "aws-us-west-2-v100", "--work", "4h", "--deadline", "8h", "-f", "json"],
     "-o", [], {}, []),
    ("steptime-job", ["spotsim", "steptime", "{repo}/tests/steptime/fixtures/three_steps.json", "--steps", "10"],
     "--job-out", [], {}, []),
    ("regress-update", ["spotsim", "regress", "{dir}/b.json", "--update", "--from-spec", "{dir}/spec.json",
                        "--threads", "1", "--format", "json"], "-o", [], {"spec.json": SPEC}, []),
    ("advise", ["spotsim", "advise", "--steps", "10000", "--step-time", "300ms", "--measured-gpu", "A100-40GB",
                "--deadline", "14h", "--cloud", "gcp", "--gpu", "A100", "-n", "5", "--threads", "1", "-f", "json"],
     "-o", [], {}, []),
]


def output_cases():
    """Each writer x each destination that must be written into (or refused), never replaced."""
    cases = []
    for name, head, option, tail, files, before in WRITERS:
        if name == "regress-update":
            continue  # writes a baseline file, not -o: covered by its own destination below
        base = {"files": dict(files), "before": before}
        dest = {
            "symlink-to-file": dict(make=[["symlink", "{dir}/out", "{dir}/target"]], exit=2,
                                    words=["symbolic link", "name the file itself"],
                                    after=[["symlink", "{dir}/out"], ["same", "{dir}/target", "precious\n"],
                                           ["no_temp_files", "{dir}"]],
                                    files={"target": "precious\n"}),
            "dangling-symlink": dict(make=[["symlink", "{dir}/out", "{dir}/nowhere/x"]], exit=2,
                                     words=["symbolic link"], after=[["symlink", "{dir}/out"],
                                                                     ["missing", "{dir}/nowhere"]]),
            "directory": dict(files={"out/keep": "kept\n"}, exit=2, words=["is a directory"],
                              after=[["same", "{dir}/out/keep", "kept\n"], ["no_temp_files", "{dir}"]]),
            "fifo": dict(make=[["fifo", "{dir}/out"]], drain="{dir}/out", exit=0, words=[],
                         after=[["fifo", "{dir}/out"], ["no_temp_files", "{dir}"]]),
            "dev-null": dict(make=[["chardev", "{dir}/out", "null"]], exit=0, words=[],
                             after=[["chardev", "{dir}/out"], ["no_temp_files", "{dir}"]]),
            "dev-full": dict(make=[["chardev", "{dir}/out", "full"]], exit=2, words=["write failed"],
                             after=[["chardev", "{dir}/out"], ["no_temp_files", "{dir}"]]),
            "link-to-dev-null": dict(make=[["chardev", "{dir}/null", "null"], ["symlink", "{dir}/out", "{dir}/null"]],
                                     exit=0, words=[], after=[["symlink", "{dir}/out"], ["chardev", "{dir}/null"]]),
        }
        for what, d in dest.items():
            case = {"name": f"outputs/{name}/{what}",
                    "command": head + [option, "{dir}/out"] + tail,
                    "exit": d["exit"], "words": d["words"], "timeout": 120}
            merged_files = dict(base["files"], **d.get("files", {}))
            if merged_files:
                case["files"] = merged_files
            for key in ("make", "drain", "after"):
                if key in d:
                    case[key] = d[key]
            if base["before"]:
                case["before"] = base["before"]
            cases.append(case)
        # "-" is stdout: the output arrives there, nothing named "-" is made.
        if name not in ("simulate-timeline",):
            case = {"name": f"outputs/{name}/dash-is-stdout", "command": head + [option, "-"] + tail,
                    "exit": 0, "words": [], "after": [["missing", "{dir}/-"]], "timeout": 120}
            if base["files"]:
                case["files"] = base["files"]
            if base["before"]:
                case["before"] = base["before"]
            cases.append(case)
    cases.append({"name": "outputs/simulate/timeline-and-output-one-file",
                  "command": ["spotsim", "simulate", "-n", "3", "-o", "{dir}/r.json", "--timeline", "{dir}/r.json"],
                  "exit": 2, "words": ["--timeline", "also where the result goes"],
                  "after": [["missing", "{dir}/r.json"]]})
    cases.append({"name": "outputs/simulate/timeline-to-stdout-beside-the-table",
                  "command": ["spotsim", "simulate", "-n", "3", "--timeline", "/dev/stdout"],
                  "exit": 2, "words": ["--timeline", "stdout"]})
    cases.append({"name": "outputs/regress/baseline-is-a-symlink",
                  "command": ["spotsim", "regress", "{dir}/b.json", "--update", "--from-spec", "{dir}/spec.json",
                              "--threads", "1"],
                  "files": {"spec.json": SPEC, "target": "precious\n"},
                  "make": [["symlink", "{dir}/b.json", "{dir}/target"]], "exit": 2, "words": ["symbolic link"],
                  "after": [["symlink", "{dir}/b.json"], ["same", "{dir}/target", "precious\n"]]})
    return cases


def non_utf8_cases():
    """Bytes that are not UTF-8 in every string input: accepted and written as valid JSON where they are only
    carried (paths), refused naming the field where they must round-trip (names)."""
    trace_dir = "caf" + LATIN1
    copy = {f"{trace_dir}/t.json": {"generate": "copy", "path": "traces/library/us-west1.json"}}
    cases = [
        {"name": "non-utf8/simulate-trace-path-json", "files": copy,
         "command": ["spotsim", "simulate", "--trace", "{dir}/" + trace_dir + "/t.json", "-n", "2", "-f", "json",
                     "-o", "{dir}/r.json"], "exit": 0, "words": []},
        {"name": "non-utf8/simulate-trace-path-timeline", "files": copy,
         "command": ["spotsim", "simulate", "--trace", "{dir}/" + trace_dir + "/t.json", "-n", "2", "--timeline",
                     "{dir}/t.jsonl", "-o", "{dir}/r.json"], "exit": 0, "words": []},
        {"name": "non-utf8/output-path", "files": {},
         "command": ["spotsim", "simulate", "-n", "2", "-f", "json", "-o", "{dir}/r" + LATIN1 + ".json"],
         "exit": 0, "words": []},
        {"name": "non-utf8/sweep-out-folder", "files": {"spec.json": SPEC},
         "command": ["spotsim", "sweep", "{dir}/spec.json", "--out", "{dir}/o" + LATIN1, "--quiet"],
         "exit": 0, "words": []},
        {"name": "non-utf8/advise-catalogue-path",
         "files": {"c" + LATIN1 + "/offers.json": {"generate": "copy",
                                                    "path": "traces/library/catalogue/gpu_offers.json"}},
         "command": ["spotsim", "advise", "--steps", "10000", "--step-time", "300ms", "--measured-gpu", "A100-40GB",
                     "--deadline", "14h", "--cloud", "gcp", "--gpu", "A100", "-n", "3", "--threads", "1",
                     "--catalogue", "{dir}/c" + LATIN1 + "/offers.json", "-f", "json", "-o", "{dir}/a.json"],
         "exit": 0, "words": []},
        {"name": "non-utf8/campaign-job-name",
         "files": {"jobs.csv": {"generate": "hex", "bytes": "6e616d652c6172726976616c2c776f726b0a6ae92c30682c32680a"}},
         "command": ["spotsim", "campaign", "--jobs", "{dir}/jobs.csv", "-r", "2", "--managed-catalogue", "none",
                     "-f", "json", "-o", "{dir}/c.json"],
         "exit": 2, "words": ["jobs.csv:2", "name", "UTF-8"], "after": [["missing", "{dir}/c.json"]]},
        {"name": "non-utf8/trace-convert-zone-name",
         "command": ["spotsim", "trace", "convert", "{repo}/traces/library/us-west1.json", "--zone-name",
                     "z" + LATIN1, "-o", "{dir}/z.json"],
         "exit": 2, "words": ["--zone-name", "UTF-8"], "after": [["missing", "{dir}/z.json"], ["no_temp_files", "{dir}"]]},
        {"name": "non-utf8/trace-convert-name",
         "command": ["spotsim", "trace", "convert", "{repo}/traces/library/us-west1.json", "--name",
                     "n" + LATIN1, "-o", "{dir}/z.json"],
         "exit": 2, "words": ["--name", "UTF-8"], "after": [["missing", "{dir}/z.json"], ["no_temp_files", "{dir}"]]},
        {"name": "non-utf8/trace-inspect-only-zone",
         "command": ["spotsim", "trace", "inspect", "{repo}/traces/library/gcp-h100-13-zones.json", "--only-zone",
                     "z" + LATIN1, "-f", "json"],
         "exit": 2, "words": ["--only-zone", "UTF-8"]},
        {"name": "non-utf8/policy-name",
         "command": ["spotsim", "simulate", "-n", "2", "--policy", "gr" + LATIN1 + "edy", "-f", "json"],
         "exit": 2, "words": ["--policy", "unknown policy"]},
        {"name": "non-utf8/checkpoint-spec",
         "command": ["spotsim", "simulate", "-n", "2", "--checkpoint", "fixed:interval=1" + LATIN1, "-f", "json"],
         "exit": 2, "words": ["interval"]},
        {"name": "non-utf8/regions",
         "command": ["spotsim", "simulate", "-n", "2", "--trace", "gcp-h100-13-zones", "--regions",
                     "us-" + LATIN1, "-f", "json"],
         "exit": 2, "words": ["--regions"]},
    ]
    return cases


def shell_path_cases():
    """Shell metacharacters in every path that reaches a script spotsim-slurm-sweep writes: the scripts are run (as
    Slurm would, without Slurm) and must compute the sweep without running anything hidden in a name."""
    names = {"command-substitution": "o$(touch PWNED)", "backquotes": "o`touch PWNED`",
             "double-quote": 'o"; touch PWNED; "', "single-quote": "o'; touch PWNED; '",
             "spaces-and-glob": "o with * and ?", "dollar-brace": "o${IFS}$(touch${IFS}PWNED)"}
    script = "{repo}/experiments/slurm/spotsim-slurm-sweep"
    cases = []
    for what, folder in names.items():
        out = "{dir}/" + folder
        cases.append({
            "name": f"shell-paths/out-folder/{what}", "files": {"spec.json": SPEC},
            "before": [[script, "{dir}/spec.json", out, "--shards", "1", "--spotsim", "{build}/tools/spotsim",
                        "--dry-run"]],
            "command": ["/bin/bash", "-c", 'cd "$1" && SLURM_ARRAY_TASK_ID=1 bash shard.sbatch && bash merge.sbatch',
                        "run-scripts", out],
            "exit": 0, "words": [], "timeout": 120,
            "after": [["no_file_named", "PWNED"], ["exists", out + "/merged/runs.csv"]]})
        cases.append({
            "name": f"shell-paths/spotsim-path/{what}", "files": {"spec.json": SPEC},
            "make": [["symlink", "{dir}/" + folder + "-bin/spotsim", "{build}/tools/spotsim"]],
            "before": [[script, "{dir}/spec.json", "{dir}/sweep", "--shards", "1", "--spotsim",
                        "{dir}/" + folder + "-bin/spotsim", "--dry-run"]],
            "command": ["/bin/bash", "-c", 'cd "$1" && SLURM_ARRAY_TASK_ID=1 bash shard.sbatch && bash merge.sbatch',
                        "run-scripts", "{dir}/sweep"],
            "exit": 0, "words": [], "timeout": 120,
            "after": [["no_file_named", "PWNED"], ["exists", "{dir}/sweep/merged/runs.csv"]]})
    cases.append({"name": "shell-paths/out-folder/newline", "files": {"spec.json": SPEC},
                  "command": [script, "{dir}/spec.json", "{dir}/o\nx", "--dry-run"], "exit": 2,
                  "words": ["control characters"], "after": [["no_file_named", "shard.sbatch"]]})
    cases.append({"name": "shell-paths/out-folder/percent", "files": {"spec.json": SPEC},
                  "command": [script, "{dir}/spec.json", "{dir}/o%a", "--dry-run"], "exit": 2,
                  "words": ["'%'"]})
    return cases


PYTHON_ENV = {"PYTHONPATH": "{build}/python"}


def python_policy_case(name, body, words):
    code = ("import spotsim\nfrom spotsim import SelectionDecision\n" + body +
            "\nspotsim.simulate(policy=POLICY, checkpoint=CHECKPOINT, work='6h', deadline='10h', replications=2, "
            "threads=1)\nprint('no error')\n")
    return {"name": "policy-answers/python/" + name, "command": ["/usr/bin/python3", "-c", code],
            "env": PYTHON_ENV, "needs": ["python"], "exit": 1, "words": words, "absent": ["no error"], "timeout": 60}


def policy_answer_cases():
    """Answers out of range from every plugin and Python callback: refused with the policy's name and the rule."""
    cases = []
    plugin = "{build}/tests/plugins/libmisbehaving_policies.so"
    for policy, checkpoint, words in [
        ("review-now", "young-daly", ["review-now", "expected a time after now"]),
        ("past-review", "young-daly", ["past-review", "expected a time after now"]),
        ("review-far", "young-daly", ["review-far", "at most 1e15 ms"]),
        ("spot-only", "huge-interval", ["huge-interval", "at most 1e15 ms"]),
        ("spot-only", "negative-interval", ["negative-interval", "more than 0"]),
        ("spot-only", "zero-interval", ["zero-interval", "more than 0"]),
    ]:
        cases.append({"name": f"policy-answers/plugin/{policy}+{checkpoint}",
                      "command": ["spotsim", "simulate", "--plugin", plugin, "--policy", policy, "--checkpoint",
                                  checkpoint, "-n", "2", "--threads", "1", "--work", "6h", "--deadline", "10h"],
                      "exit": 2, "words": words, "timeout": 60})
    intervals = {"1e16-seconds": "1e16", "1e300-seconds": "1e300", "ten-to-the-30": "10**30", "negative": "-5.0",
                 "zero": "0", "nan": "float('nan')", "infinity": "float('inf')"}
    for what, value in intervals.items():
        body = (f"class C:\n    def next_interval(self, obs):\n        return {value}\n"
                "POLICY, CHECKPOINT = 'greedy', C()")
        words = ["next_interval()", "at most 1e15 ms"]
        if what in ("negative", "zero", "nan", "infinity"):
            words = ["next_interval()", "more than 0"]
        cases.append(python_policy_case("interval-" + what, body, words))
    reviews = {"at-now": "obs.now", "before-now": "obs.now - 1", "1e300": "1e300", "nan": "float('nan')",
               "far": "obs.now + 1e13"}
    for what, value in reviews.items():
        body = ("class P:\n    def decide(self, obs):\n"
                f"        return SelectionDecision.on_demand(0, review_at={value})\n"
                "POLICY, CHECKPOINT = P(), 'young-daly'")
        words = ["review_at"]
        cases.append(python_policy_case("review-" + what, body, words))
    kept = ("kept = []\nclass P:\n    def decide(self, obs):\n        kept.append(obs)\n"
            "        if len(kept) > 1:\n            kept[0].progress\n"
            "        return SelectionDecision.on_demand(0)\nPOLICY, CHECKPOINT = P(), 'young-daly'")
    cases.append(python_policy_case("kept-observation-raises", kept, ["kept after the policy call"]))
    cases.append({"name": "policy-answers/plugin/truncated-library",
                  "files": {"libcut.so": {"generate": "head", "bytes": 4096,
                                          "path": "{build}/tests/plugins/libmisbehaving_policies.so"}},
                  "command": ["spotsim", "simulate", "--plugin", "{dir}/libcut.so", "-n", "2"], "exit": 2,
                  "words": ["libcut.so", "truncated"]})
    return cases


FAMILIES = {"family_outputs.json": output_cases, "family_non_utf8.json": non_utf8_cases,
            "family_shell_paths.json": shell_path_cases, "family_policy_answers.json": policy_answer_cases}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for file_name, make in FAMILIES.items():
        text = json.dumps(make(), indent=1, ensure_ascii=True) + "\n"
        path = os.path.join(HERE, "cases", file_name)
        if args.check:
            with open(path) as f:
                if f.read() != text:
                    stale.append(file_name)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print("stale family files (run tests/hostile/families.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

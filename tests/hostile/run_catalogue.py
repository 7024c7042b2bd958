#!/usr/bin/env python3
"""The catalogue of bad inputs: every case runs one spotsim command on a hostile input and checks that it ends with
the expected exit code and a message containing the expected words, never with a crash (a signal, a sanitizer
report, an abort) or a hang.

Cases live in tests/hostile/cases/*.json, one JSON array per area (docs/testing.md#catalogue):

  {"name": "trace/nested-arrays",                     unique, "area/what"
   "command": ["spotsim", "trace", "inspect", "{dir}/t.json"],
   "files": {"t.json": "text" | {"generate": ...}},   written into a fresh directory {dir} first
   "stdin": "text",                                   optional
   "exit": 2,                                         expected exit status
   "words": ["t.json", "nest"],                       each must appear in stdout+stderr (case-insensitive)
   "absent": ["null"],                                optional: none may appear
   "timeout": 30,                                     seconds, optional
   "max_rss_mb": 300,                                 optional peak resident memory bound
   "after": [["missing", "{dir}/out.csv"], ["same", "{dir}/out.csv", "text"]]}   optional checks on files after

The first word of a command names a program in --bin-dir (spotsim, simulate). {dir} is the case's directory,
{repo} the repository root, {shared} the shared data directory beside it.

Generators (a file given as an object):
  {"generate": "nested", "depth": N, "open": "[", "close": "]", "prefix": "", "suffix": ""}
  {"generate": "repeat", "text": "ab", "count": N, "prefix": "", "suffix": ""}
  {"generate": "copy", "path": "traces/library/us-west1.json"}                    (from {repo})
  {"generate": "json_edit", "path": "traces/library/us-west1.json", "set": [[["zones", 0, "name"], "x"]],
   "delete": [["zones", 0, "notice_s"]], "raw": [[["span_s"], "1e400"]]}  (raw: the value's exact text)
  {"generate": "gzip", "content": <text or generator>}
  {"generate": "hex", "bytes": "1f8b08"}
"""
import argparse
import concurrent.futures
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

SANITIZER_MARKS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "LeakSanitizer",
                   "terminate called", "Segmentation fault", "core dumped")


def substitute(text, context):
    for key, value in context.items():
        text = text.replace("{" + key + "}", value)
    return text


def set_path(doc, path, value):
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def delete_path(doc, path):
    node = doc
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]


RAW_MARK = "\u0000raw{}\u0000"


def generate(spec, context):
    """The bytes of one input file."""
    if isinstance(spec, str):
        return substitute(spec, context).encode("utf-8")
    kind = spec["generate"]
    if kind == "nested":
        depth = spec["depth"]
        body = spec.get("open", "[") * depth + spec.get("inner", "") + spec.get("close", "]") * depth
        return (spec.get("prefix", "") + body + spec.get("suffix", "")).encode("utf-8")
    if kind == "repeat":
        return (spec.get("prefix", "") + spec["text"] * spec["count"] + spec.get("suffix", "")).encode("utf-8")
    if kind == "copy":
        with open(os.path.join(context["repo"], spec["path"]), "rb") as f:
            return f.read()
    if kind == "json_edit":
        with open(os.path.join(context["repo"], spec["path"]), "rb") as f:
            doc = json.load(f)
        for path, value in spec.get("set", []):
            set_path(doc, path, value)
        for path in spec.get("delete", []):
            delete_path(doc, path)
        raws = []
        for path, text in spec.get("raw", []):
            set_path(doc, path, RAW_MARK.format(len(raws)))
            raws.append(text)
        out = json.dumps(doc, ensure_ascii=spec.get("ascii", True))
        for i, text in enumerate(raws):
            out = out.replace(json.dumps(RAW_MARK.format(i)), text)
        return out.encode("utf-8")
    if kind == "gzip":
        return gzip.compress(generate(spec["content"], context), mtime=0)
    if kind == "hex":
        return bytes.fromhex(spec["bytes"])
    raise ValueError("unknown generator " + kind)


def run_case(case, args):
    context = {"repo": args.repo, "shared": args.shared}
    work = tempfile.mkdtemp(prefix="spotsim-hostile-")
    context["dir"] = work
    try:
        for name, spec in case.get("files", {}).items():
            path = os.path.join(work, substitute(name, context))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(generate(spec, context))
        argv = [substitute(a, context) for a in case["command"]]
        argv[0] = os.path.join(args.bin_dir, argv[0])
        timeout = case.get("timeout", 60) * args.timeout_scale
        stdin = case.get("stdin")
        # Peak memory of the child: run it under /usr/bin/time when a bound is asked for and the tool exists.
        rss_file = None
        if "max_rss_mb" in case and os.path.exists("/usr/bin/time") and not args.sanitized:
            rss_file = os.path.join(work, ".rss")
            argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + argv
        try:
            proc = subprocess.run(argv, input=None if stdin is None else substitute(stdin, context).encode(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=work,
                                  start_new_session=True)
        except subprocess.TimeoutExpired:
            return "hang: no exit within {:.0f} s".format(timeout)
        output = (proc.stdout + proc.stderr).decode("utf-8", "replace")
        problems = []
        if proc.returncode < 0:
            problems.append("crash: killed by signal {}".format(-proc.returncode))
        elif proc.returncode in (134, 136, 139) or any(m in output for m in SANITIZER_MARKS):
            problems.append("crash: exit {}".format(proc.returncode))
        elif proc.returncode != case["exit"]:
            problems.append("exit {} (expected {})".format(proc.returncode, case["exit"]))
        lower = output.lower()
        for word in case.get("words", []):
            if substitute(word, context).lower() not in lower:
                problems.append("message lacks '{}'".format(word))
        for word in case.get("absent", []):
            if substitute(word, context).lower() in lower:
                problems.append("message has '{}'".format(word))
        if rss_file and os.path.exists(rss_file):
            with open(rss_file) as f:
                lines = [l for l in f.read().split() if l.isdigit()]
            if lines and int(lines[-1]) / 1024 > case["max_rss_mb"]:
                problems.append("peak memory {:.0f} MB > {} MB".format(int(lines[-1]) / 1024, case["max_rss_mb"]))
        for check in case.get("after", []):
            kind, path = check[0], substitute(check[1], context)
            if kind == "missing" and os.path.exists(path):
                problems.append("{} exists".format(check[1]))
            if kind == "exists" and not os.path.exists(path):
                problems.append("{} is missing".format(check[1]))
            if kind == "same":
                with open(path, "rb") as f:
                    if f.read() != substitute(check[2], context).encode():
                        problems.append("{} was changed".format(check[1]))
            if kind == "no_temp_files":
                left = [n for n in os.listdir(path) if ".tmp" in n]
                if left:
                    problems.append("temp files left in {}: {}".format(check[1], left))
        if problems:
            tail = output.strip().splitlines()[-6:]
            return "; ".join(problems) + "\n      output: " + "\n              ".join(tail)
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", required=True, help="directory holding spotsim and simulate")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument("--shared", default=None)
    parser.add_argument("--cases", action="append", help="only this case file (repeatable)")
    parser.add_argument("--filter", default="", help="only cases whose name contains this")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--sanitized", action="store_true", help="a sanitizer build: slower, no memory bounds")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    args.repo = os.path.abspath(args.repo)
    args.shared = os.path.abspath(args.shared or os.path.join(args.repo, "..", "shared"))
    args.bin_dir = os.path.abspath(args.bin_dir)
    args.timeout_scale = 4 if args.sanitized else 1

    cases, names = [], set()
    files = args.cases or sorted(glob.glob(os.path.join(here, "cases", "*.json")))
    for path in files:
        with open(path) as f:
            for case in json.load(f):
                if case["name"] in names:
                    sys.exit("{}: case '{}' is defined twice".format(path, case["name"]))
                names.add(case["name"])
                cases.append(case)
    cases = [c for c in cases if args.filter in c["name"]]
    if args.list:
        for c in cases:
            print(c["name"])
        return 0
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for case, problem in zip(cases, pool.map(lambda c: run_case(c, args), cases)):
            if problem:
                failures += 1
                print("FAIL {}: {}".format(case["name"], problem))
    print("{} cases, {} failed".format(len(cases), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

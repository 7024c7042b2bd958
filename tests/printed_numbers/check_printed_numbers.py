#!/usr/bin/env python3
"""Numbers printed for people are rounded: every command's --help, and the text outputs of trace inspect (on every
shipped trace), simulate, advise, bound and sweep on small cases, must not show a float with more than
MAX_SIGNIFICANT significant digits (no "80.75280222222223 h", no "(=0.90000000000000002)"). JSON and CSV outputs
are data and keep full precision; they are not checked here.

  check_printed_numbers.py --bin-dir build/tools [--repo .]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

MAX_SIGNIFICANT = 7
# A decimal number: digits, a point, digits (exponent optional). Words such as version strings or hashes are not
# floats; integers (seeds, counts) are not either.
FLOAT = re.compile(r"(?<![\w.])(\d+)\.(\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def significant_digits(whole, fraction):
    digits = (whole + fraction).lstrip("0")
    return len(digits)


def long_floats(text):
    return [m.group(0) for m in FLOAT.finditer(text) if significant_digits(m.group(1), m.group(2)) > MAX_SIGNIFICANT]


def run(command, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=cwd)
    return done.returncode, done.stdout + done.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    args = parser.parse_args()
    spotsim = os.path.join(args.bin_dir, "spotsim")
    simulate = os.path.join(args.bin_dir, "simulate")
    checks = []  # (description, command)
    code, top = run([spotsim, "--help"])
    commands = re.findall(r"^  ([a-z]+)\s", top, re.M)
    assert "simulate" in commands and "trace" in commands, top
    for c in commands:
        checks.append(("spotsim " + c + " --help", [spotsim, c, "--help"]))
    for sub in ("convert", "inspect", "fit", "generate"):
        checks.append(("spotsim trace " + sub + " --help", [spotsim, "trace", sub, "--help"]))
    checks.append(("simulate --help", [simulate, "--help"]))
    for trace in sorted(glob.glob(os.path.join(args.repo, "traces/library/*.json"))):
        checks.append(("trace inspect " + os.path.basename(trace), [spotsim, "trace", "inspect", trace]))
    with tempfile.TemporaryDirectory() as tmp:
        # A job whose work in hours has many digits: steps x a step time (the steptime --job-out shape).
        job = os.path.join(tmp, "job.json")
        with open(job, "w") as f:
            json.dump({"name": "long-digits", "steps": 290710, "step_time_s_by_gpu": {"A100-40GB": 1.0000007}}, f)
        checks.append(("simulate (steps x step time)", [spotsim, "simulate", "--job", job, "--trace", "gcp-us-central1-c",
                                                         "-n", "20", "--checkpoint", "fixed:interval=1.2345678h"]))
        checks.append(("advise", [spotsim, "advise", "--steps", "290710", "--step-time", "123.4567ms", "--measured-gpu",
                                  "V100", "--gpu", "A100-40GB", "--cloud", "gcp", "--region", "us-central1", "-n", "5",
                                  "--deadline", "13.3333h"]))
        checks.append(("bound", [spotsim, "bound", "--trace", "aws-us-west-2-v100", "--work", "8h", "--deadline", "10h"]))
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump({"format": "spotsim-experiment", "version": 1, "name": "digits", "replications": 10,
                       "traces": ["gcp-us-central1-c"], "policies": ["on-demand", "spot-only"], "job": job}, f)
        checks.append(("sweep", [spotsim, "sweep", spec, "-o", os.path.join(tmp, "out")]))
        failures = []
        for description, command in checks:
            code, text = run(command, cwd=args.repo)
            if code != 0:
                failures.append(f"{description}: exit {code}\n{text[-2000:]}")
                continue
            found = long_floats(text)
            if found:
                failures.append(f"{description}: unrounded number(s) {sorted(set(found))[:5]}")
            if description == "sweep":
                for path in glob.glob(os.path.join(tmp, "out", "*.md")):
                    found = long_floats(open(path).read())
                    if found:
                        failures.append(f"sweep {os.path.basename(path)}: unrounded number(s) {sorted(set(found))[:5]}")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{len(checks) - len(failures)}/{len(checks)} outputs print rounded numbers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

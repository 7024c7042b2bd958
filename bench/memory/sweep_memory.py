#!/usr/bin/env python3
"""Peak memory and wall time of `spotsim sweep` at scale (docs/experiments.md#memory).

Builds two specs in a temporary directory and runs each under /usr/bin/time -v:

  many-traces  2,400 small two-zone traces (3 days each) x 5 policies x 2 checkpoint policies x 3 replications
               = 72,000 runs in 24,000 configurations: the sweep that once peaked at 4 GB
  many-runs    one trace x 5 policies x 2 checkpoint policies x 100,000 replications = 10^6 runs

Usage: bench/memory/sweep_memory.py [--bin build/tools/spotsim] [--threads 2] [--only many-traces|many-runs]
       [--traces 2400] [--replications 100000] [--keep DIR]

Prints one line per sweep: runs, peak RSS (MB), wall time (s). The traces are synthetic and fixed by their seeds,
so two builds are compared on the same input (compare their outputs with cmp for byte identity: --keep DIR).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

POLICIES = ["on-demand", "spot-only", "greedy", "uniform-progress", "zone-failover"]
CHECKPOINTS = ["young-daly", "hazard"]


def two_zone_trace(binary, directory, index):
    """A 3-day two-zone trace: two generated single-zone recordings joined under one name."""
    zones = []
    for zone in range(2):
        out = os.path.join(directory, "zone-%d.json" % zone)
        subprocess.run([binary, "trace", "generate", "--lifetime", "exponential:mean_hours=%d" % (4 + index % 7 + 3 * zone),
                        "--span", "3d", "--seed", str(2 * index + zone + 1), "--on-demand-price", "3.67",
                        "--spot-price", "1.93", "--name", "z", "-o", out], check=True, stderr=subprocess.DEVNULL)
        with open(out) as f:
            doc = json.load(f)
        doc["zones"][0]["name"] = "zone-%d" % zone
        zones.append(doc)
    trace = zones[0]
    trace["zones"].append(zones[1]["zones"][0])
    trace["name"] = "trace-%04d" % index
    return trace


def write_spec(path, name, traces, replications, job):
    spec = {"format": "spotsim-experiment", "version": 1, "name": name, "seed": 7, "replications": replications,
            "traces": traces, "policies": POLICIES, "baseline_policy": "on-demand", "checkpoints": CHECKPOINTS,
            "job": job, "chunk_runs": 1000}
    with open(path, "w") as f:
        json.dump(spec, f, indent=1)


def build_specs(binary, directory, trace_count, replications):
    trace_dir = os.path.join(directory, "traces")
    os.makedirs(trace_dir)
    # Generating 4,800 recordings takes a while: generate 40 distinct traces and rename copies of them (the names
    # give every copy its own seed, so the runs still differ).
    distinct = [two_zone_trace(binary, trace_dir, i) for i in range(min(40, trace_count))]
    refs = []
    for i in range(trace_count):
        trace = dict(distinct[i % len(distinct)])
        trace["name"] = "trace-%04d" % i
        ref = "traces/trace-%04d.json" % i
        with open(os.path.join(directory, ref), "w") as f:
            json.dump(trace, f)
        refs.append(ref)
    small_job = {"work_hours": 8, "deadline_hours": 12}
    write_spec(os.path.join(directory, "many-traces.json"), "Many small traces", refs, 3, small_job)
    write_spec(os.path.join(directory, "many-runs.json"), "Many runs on one trace", [refs[0]], replications, small_job)


def measure(binary, spec, out, threads):
    started = subprocess.run(["/usr/bin/time", "-v", binary, "sweep", spec, "--out", out, "--threads", str(threads),
                              "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if started.returncode != 0:
        sys.exit("%s failed (exit %d):\n%s" % (spec, started.returncode, started.stderr[-3000:]))
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", started.stderr).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (.*)", started.stderr).group(1)
    seconds = sum(float(part) * 60 ** k for k, part in enumerate(reversed(wall.split(":"))))
    return rss_kb / 1024, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/tools/spotsim")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", choices=["many-traces", "many-runs"])
    parser.add_argument("--traces", type=int, default=2400)
    parser.add_argument("--replications", type=int, default=100000)
    parser.add_argument("--keep", help="build the specs and outputs in this directory and keep them")
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    directory = args.keep or tempfile.mkdtemp(prefix="spotsim-sweep-memory-")
    os.makedirs(directory, exist_ok=True)
    try:
        if not os.path.exists(os.path.join(directory, "many-traces.json")):
            build_specs(binary, directory, args.traces, args.replications)
        for name in ["many-traces", "many-runs"]:
            if args.only and name != args.only:
                continue
            out = os.path.join(directory, "out-" + name)
            shutil.rmtree(out, ignore_errors=True)
            rss_mb, seconds = measure(binary, os.path.join(directory, name + ".json"), out, args.threads)
            with open(os.path.join(out, "manifest.json")) as f:
                runs = json.load(f)["runs"]
            print("%-12s %9d runs  peak RSS %7.1f MB  wall %7.1f s" % (name, runs, rss_mb, seconds), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()

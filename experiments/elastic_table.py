#!/usr/bin/env python3
"""Restart vs elastic training on the shipped multi-node recordings (docs/validation.md#elastic).

For a ResNet-50-size and a GPT-2-size data-parallel job on 1-GPU V100 instances (p3.2xlarge), each recording and
each mode (restart: min_nodes = N; elastic: min_nodes = N/2 and 1) is simulated with Young/Daly checkpoints (the
interval from the zone's preemption rate for N instances) and the same seed, so every mode
sees the same reclaims (common random numbers). Prints one Markdown table per job.

The job files in experiments/jobs/ were written by `spotsim steptime` from the shared Kineto traces; --regenerate-jobs
rewrites them (needs ../shared). Usage:
    experiments/elastic_table.py [--bin build/tools] [--replications 300] [--regenerate-jobs]
"""
import argparse
import json
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
JOBS = REPO / "experiments" / "jobs"
KINETO = REPO.parent / "shared" / "data" / "kernels" / "kineto-traces" / "hta"

# name, trace, params, steps: ~24 h of training on 16 p3.2xlarge at the step time steptime predicts.
JOB_SOURCES = {
    "resnet50": ("v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz", "25.6M", "ResNet-50 (25.6 M parameters)"),
    "gpt2": ("v100_transformerlike_ddp2_fp32_rank1.json.gz", "124M", "GPT-2-size (124 M parameters)"),
}
RECORDINGS = [  # trace, zone, instances the job asks for
    ("aws-v100-16-node", "us-east-2b", 16),
    ("aws-v100-16-node", "us-west-2a", 16),
    ("aws-v100-16-node", "us-west-2c", 16),
    ("aws-v100-4-node", "us-east-1f", 4),
    ("aws-v100-4-node", "us-east-2a", 4),
    ("aws-v100-4-node", "us-west-2c", 4),
    # The Parcae p3 log is the Bamboo p3 log (aws-p3-parcae-32-node has the same counts): one row per size.
    ("aws-p3-bamboo-32-node", "p3-asg", 8),
    ("aws-p3-bamboo-32-node", "p3-asg", 16),
]


def regenerate_jobs(spotsim):
    for name, (trace, params, _) in JOB_SOURCES.items():
        out = JOBS / f"elastic-{name}.json"
        subprocess.run([spotsim, "steptime", str(KINETO / trace), "--params", params, "--instance", "p3.2xlarge",
                        "--nodes", "1..16", "--steps", "1", "--job-out", str(out)], check=True,
                       stdout=subprocess.DEVNULL)


def job_for(name, nodes, work_hours):
    """The steptime job file cut to `nodes` instances, with the work set in hours on all of them."""
    job = json.loads((JOBS / f"elastic-{name}.json").read_text())
    # Checkpoint size, write and restore as steptime derived them from the model size (docs/step-time.md).
    return {"name": f"{name} on {nodes}", "work_hours": work_hours, "nodes": nodes,
            "step_time_s_by_nodes": job["step_time_s_by_nodes"][:nodes], "gpus_per_instance": job["gpus_per_instance"],
            "checkpoint_size_gb": job["checkpoint_size_gb"], "checkpoint_write_s": job["checkpoint_write_s"],
            "restore_s": job["restore_s"], "startup_s": 300}


def simulate(simulate_bin, job, trace, zone, min_nodes, policy, replications, tmp):
    path = tmp / "job.json"
    path.write_text(json.dumps(job))
    cmd = [simulate_bin, "--trace", trace, "--zones", zone, "--job", str(path), "--min-nodes", str(min_nodes),
           "--policy", policy, "--checkpoint", "young-daly", "-n", str(replications), "--seed", "7",
           "--format", "json", "--threads", "2"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)["summary"]
    return {k: summary[k]["mean"] if k in summary else float("nan") for k in ("cost_total", "completion_hours", "value", "completed", "reconfigurations",
                                             "preemptions")}


def cell(r):
    text = f"{r['cost_total']:.0f} / {r['completion_hours']:.1f} / {r['value']:.2f}"
    if r["completed"] < 1.0:
        text += f" ({100 * r['completed']:.0f}% finish)"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(REPO / "build" / "tools"))
    parser.add_argument("--replications", type=int, default=300)
    parser.add_argument("--regenerate-jobs", action="store_true")
    args = parser.parse_args()
    bin_dir = pathlib.Path(args.bin)
    if args.regenerate_jobs:
        regenerate_jobs(str(bin_dir / "spotsim"))
    tmp = pathlib.Path(subprocess.run(["mktemp", "-d"], check=True, capture_output=True, text=True).stdout.strip())
    for name, (_, _, label) in JOB_SOURCES.items():
        print(f"\n{label}, 24 h of training on N p3.2xlarge, Young/Daly checkpoints, spot-nodes, "
              f"{args.replications} windows per row (mean)\n")
        print("| recording | zone | N | on-demand $ | restart $ / h / value | elastic N/2 $ / h / value | "
              "elastic 1 $ / h / value | value elastic N/2 / restart |")
        print("|---|---|---|---|---|---|---|---|")
        for trace, zone, nodes in RECORDINGS:
            job = job_for(name, nodes, 24.0)
            od = simulate(str(bin_dir / "simulate"), job, trace, zone, nodes, "on-demand-nodes", 1, tmp)
            rows = [simulate(str(bin_dir / "simulate"), job, trace, zone, m, "spot-nodes", args.replications, tmp)
                    for m in (nodes, max(1, nodes // 2), 1)]
            cells = [cell(r) for r in rows]
            gain = rows[1]["value"] / rows[0]["value"] if rows[0]["completed"] == 1.0 else float("inf")
            gain_text = f"{gain:.2f}x" if gain != float("inf") else "restart does not finish"
            print(f"| {trace} | {zone} | {nodes} | {od['cost_total']:.0f} | " + " | ".join(cells) + f" | {gain_text} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Score a strategy the way the Can't Be Late benchmarks do (ADRS/OpenEvolve, GEPA, Frontier-CS), so an evolution
loop can call spotsim instead of the authors' simulator (docs/plugins.md#scoring):

    python3 -m spotsim.score strategy.py --trace T.json --windows windows.csv --deadline-hours 52

(With --harness PROFILE instead, the file is scored exactly as that public harness scores it: spotsim.harness.)

runs the strategy file in the Can't Be Late compatibility mode on each window (one start each), and prints JSON:
mean cost over the windows, the on-demand-only and spot-only mean costs on the same windows and deadline, and the
normalised score (OD - cost) / (OD - spot_only): 1 = as cheap as spot alone, 0 = no saving over on-demand.

Isolation (docs/plugins.md#score-isolation): the strategy runs in a child process with a time limit, a memory
limit, no file writes and no new processes, and its results come back over a private pipe, never stdout; the
baselines are computed here, where the strategy's code never runs. Exit 3 (and no JSON) when the strategy fails.

Deadline misses: a window whose deadline is missed is charged its cost plus a penalty (by default the on-demand-
only mean cost: a miss is always worse than having paid for on-demand throughout); `mean_cost` is the raw mean,
`score` uses the penalised one, and `deadline_misses` counts them. The spot-only normaliser is its raw cost (it
often misses: it is the price floor, not a competitor).
"""
import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

from . import _spotsim
from .options import cli_options
from .strategy_files import strategy_policy

# The paper's single-region job (Wu et al., NSDI'24 §6): 48 h of lossless work, restart overhead 0.2 h.
PAPER_JOB = {"work_hours": 48.0, "restart_overhead_hours": 0.2}


def window_starts(windows, tick_s, pair=None):
    """Trace starts in seconds from a windows CSV: a start_s column, or start_tick (x the tick); rows filtered by
    `pair` when the file has a pair column (the reference windows.csv)."""
    with open(windows, newline="") as f:
        rows = list(csv.DictReader(f))
    if pair is not None:
        rows = [r for r in rows if r.get("pair") == pair]
    if not rows:
        raise ValueError(f"{windows}: expected windows" + (f" of pair {pair!r}" if pair else ""))
    if "start_s" in rows[0]:
        return [float(r["start_s"]) for r in rows]
    return [int(r["start_tick"]) * tick_s for r in rows]


def trace_tick_s(trace):
    with open(trace) as f:
        tick = json.load(f).get("tick_s")
    if not tick:
        raise ValueError(f"{trace}: expected a trace with a tick (field tick_s) for the Can't Be Late mode")
    return float(tick)


def policy_name(policy):
    """A policy's name where a name goes: a built-in's spec as given, a Python policy object's "python:" and its
    `name` attribute."""
    return policy if isinstance(policy, str) else "python:" + getattr(policy, "name", "policy")


def run_windows(trace, starts_s, policy, deadline_hours, work_hours=48.0, restart_overhead_hours=0.2, regret=False):
    """One Can't Be Late mode run per start: {cost_total, completion_hours, deadline_met, fingerprint, ...} arrays
    (with `regret`, each window's exact optimum in optimum_cost). `policy` is a built-in policy name or a Python
    policy object."""
    obj = None if isinstance(policy, str) else policy
    options = cli_options(trace=str(trace), policy=policy_name(policy), checkpoint="continuous", mode="cant-be-late",
                          work=f"{work_hours * 3600:.0f}s", startup=f"{restart_overhead_hours * 3600:.0f}s",
                          restore="0s", checkpoint_write="0s", deadline=f"{deadline_hours * 3600:.0f}s",
                          replications=1, threads=1, regret=regret)
    return _spotsim.simulate_windows(options, list(starts_s), obj)


class StrategyFailed(RuntimeError):
    """The isolated strategy run ended without a result: it raised, crashed, ran out of time or memory, or exited
    without writing one. The message says which; the strategy's own stderr is kept in `log`."""

    def __init__(self, message, log=""):
        super().__init__(message)
        self.log = log


def _limit_child(time_limit_s, memory_mb):
    """Runs in the child before it starts (preexec_fn): CPU time, address space, no files written (RLIMIT_FSIZE 0:
    a strategy cannot leave files behind or fill a disk), no core dumps, its own session (killed as a group)."""
    def apply():
        os.setsid()
        cpu = max(1, int(time_limit_s) + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if memory_mb:
            size = int(memory_mb) * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run_strategy_isolated(strategy, trace, starts, job, *, name=None, args=(), spec_path=None, time_limit_s=600.0,
                          memory_mb=4096):
    """The strategy's runs, computed in a child process with limits; results come back over a private pipe.
    Raises StrategyFailed when no valid result arrives."""
    read_end, write_end = os.pipe()
    request = json.dumps({"strategy": str(strategy), "name": name, "args": list(args), "spec_path": spec_path,
                          "trace": str(trace), "starts": list(map(float, starts)), "job": job})
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                     env.get("PYTHONPATH", "")] if p)
    started = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "spotsim._score_worker", str(write_end), request],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             pass_fds=(write_end,), env=env, preexec_fn=_limit_child(time_limit_s, memory_mb))
    os.close(write_end)
    chunks = []
    try:
        log, _ = child.communicate(timeout=time_limit_s + 5)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, 9)
        child.wait()
        os.close(read_end)
        raise StrategyFailed(f"{strategy}: no result within the time limit of {time_limit_s:g} s (killed)")
    with os.fdopen(read_end, "rb") as channel:
        chunks.append(channel.read())
    log = (log or b"").decode("utf-8", "replace")
    data = b"".join(chunks)
    elapsed = time.monotonic() - started
    if child.returncode != 0:
        how = (f"killed by signal {-child.returncode}" if child.returncode < 0 else f"exit status {child.returncode}")
        if child.returncode in (-9, -24) and elapsed >= time_limit_s * 0.9:
            how += f" (the time limit of {time_limit_s:g} s)"
        elif "MemoryError" in log:
            how += f" (MemoryError: the memory limit of {memory_mb} MB)"
        last = log.strip().splitlines()[-1] if log.strip() else "no message"
        raise StrategyFailed(f"{strategy}: the strategy run failed, {how}: {last}", log)
    try:
        result = json.loads(data.decode("utf-8"))
        columns = {key: np.asarray(result[key], dtype=float) for key in ("cost_total", "completion_hours",
                                                                          "deadline_met")}
    except (ValueError, KeyError, TypeError):
        raise StrategyFailed(f"{strategy}: the strategy run exited without a valid result "
                             f"({len(data)} bytes on the result channel)", log)
    if any(len(v) != len(starts) for v in columns.values()):
        raise StrategyFailed(f"{strategy}: the result has the wrong number of windows", log)
    columns["deadline_met"] = columns["deadline_met"] > 0
    return columns


def score_strategy(strategy, trace, windows, deadline_hours, *, pair=None, name=None, args=(), spec_path=None,
                   miss_penalty_usd=None, work_hours=PAPER_JOB["work_hours"],
                   restart_overhead_hours=PAPER_JOB["restart_overhead_hours"], isolate=True, time_limit_s=600.0,
                   memory_mb=4096):
    """The scoring command's JSON document as a dict (see the module's docstring). With isolate (the default) the
    strategy runs in a child process with limits and the baselines here, where its code never runs."""
    starts = window_starts(windows, trace_tick_s(trace), pair)
    job = dict(deadline_hours=deadline_hours, work_hours=work_hours, restart_overhead_hours=restart_overhead_hours)
    if isolate:
        runs = run_strategy_isolated(strategy, trace, starts, job, name=name, args=args, spec_path=spec_path,
                                     time_limit_s=time_limit_s, memory_mb=memory_mb)
    else:
        runs = run_windows(trace, starts, strategy_policy(strategy, name, args, spec_path), **job)
    od = float(np.mean(run_windows(trace, starts, "on-demand", **job)["cost_total"]))
    spot_only = float(np.mean(run_windows(trace, starts, "spot-only", **job)["cost_total"]))
    penalty = od if miss_penalty_usd is None else float(miss_penalty_usd)
    missed = ~runs["deadline_met"]
    penalised = float(np.mean(runs["cost_total"] + penalty * missed))
    return {"strategy": str(strategy), "windows": len(starts), "deadline_hours": deadline_hours,
            "mean_cost": float(np.mean(runs["cost_total"])), "deadline_misses": int(missed.sum()),
            "miss_penalty_usd": penalty, "mean_penalised_cost": penalised, "on_demand_cost": od,
            "spot_only_cost": spot_only, "score": (od - penalised) / (od - spot_only) if od != spot_only else None}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if any(a == "--harness" or a.startswith("--harness=") for a in argv):
        # A harness profile scores the file exactly as that harness does (its grid, windows, rules and score):
        # spotsim.harness, the same as `spotsim score FILE --harness X`.
        from .harness import main as harness_main
        return harness_main(argv)
    p = argparse.ArgumentParser(prog="python3 -m spotsim.score", description=__doc__.split("\n\n")[0])
    p.add_argument("strategy", help="a sky_spot strategy file")
    p.add_argument("--trace", required=True, help="a spotsim trace file with a tick (spotsim trace convert)")
    p.add_argument("--windows", required=True, help="CSV with start_tick (or start_s) per window")
    p.add_argument("--pair", help="only the rows of this pair (a windows CSV with a pair column)")
    p.add_argument("--deadline-hours", type=float, required=True)
    p.add_argument("--work-hours", type=float, default=PAPER_JOB["work_hours"])
    p.add_argument("--restart-overhead-hours", type=float, default=PAPER_JOB["restart_overhead_hours"])
    p.add_argument("--miss-penalty-usd", type=float, help="charged per missed deadline (default: the OD mean cost)")
    p.add_argument("--name", help="the strategy's NAME when the file defines several")
    p.add_argument("--spec", help="passed to the strategy's solve(spec_path) (Frontier-CS)")
    p.add_argument("--strategy-arg", action="append", default=[], help="an option for the strategy's _from_args")
    p.add_argument("--time-limit", type=float, default=600.0, help="seconds the strategy's runs may take [600]")
    p.add_argument("--memory-mb", type=int, default=4096, help="address space of the strategy's process [4096]")
    p.add_argument("--no-isolation", action="store_true",
                   help="run the strategy in this process (faster start, no limits: trusted files only)")
    a = p.parse_args(argv)
    stdout = sys.stdout  # the JSON goes here, whatever the strategy does to sys.stdout
    try:
        result = score_strategy(a.strategy, a.trace, a.windows, a.deadline_hours, pair=a.pair, name=a.name,
                                args=a.strategy_arg, spec_path=a.spec, miss_penalty_usd=a.miss_penalty_usd,
                                work_hours=a.work_hours, restart_overhead_hours=a.restart_overhead_hours,
                                isolate=not a.no_isolation, time_limit_s=a.time_limit, memory_mb=a.memory_mb)
    except StrategyFailed as e:
        if e.log:
            sys.stderr.write(e.log[-4000:])
        print(f"spotsim.score: error: {e}", file=sys.stderr)
        sys.exit(3)
    json.dump(result, stdout, indent=2)
    print(file=stdout)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Where the CPU of a harness evaluation goes: runs a strategy file over a profile's whole grid in this process
(one core) and prints the total CPU time, the time inside the strategy's own _step(), and the rest (spotsim's
harness runner, the base class's per-tick bookkeeping included).

  PYTHONPATH=build/python python3 tools/harness/strategy_time.py FILE [--harness adrs-leaderboard]
"""
import argparse
import tempfile
import time

import spotsim.harness as harness


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("strategy")
    p.add_argument("--harness", default="adrs-leaderboard")
    a = p.parse_args()
    prof = harness.profile(a.harness)
    strategy = harness.StrategyFile(a.strategy, entry=prof.entry)
    own = [0.0]
    step = strategy.cls._step

    def timed(self, last_cluster_type, has_spot):
        started = time.perf_counter()
        try:
            return step(self, last_cluster_type, has_spot)
        finally:
            own[0] += time.perf_counter() - started

    strategy.cls._step = timed
    harness._worker_file = strategy
    tasks = prof.runs()
    with tempfile.TemporaryDirectory() as spec_dir:
        harness.write_run_files(spec_dir, prof)  # (Frontier-CS's window and spec files, as evaluate() writes them)
        strategy.spec_dir = spec_dir
        started = time.process_time()
        runs = [harness._run_one(t) for t in tasks]
        total = time.process_time() - started
    print(f"{a.harness}: {len(runs)} runs, {total:.2f} s CPU: the strategy's _step {own[0]:.2f} s, "
          f"the rest {total - own[0]:.2f} s ({1000 * total / len(runs):.2f} ms per run)")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Python policies vs the authors' simulator (docs/plugins.md#speed). The ADRS case study's figure for the Can't Be
Late authors' simulator is 7-8 ms per window; the goal is >= 20x faster, i.e. <= 0.37 ms per window.

Times 300 windows of one trace (evenly spaced starts, a 48 h job, deadline 52 h, d = 0.2 h) for:
  (a) a native spotsim Python policy (greedy, event mode) that sets review_at so it is asked only when needed;
  (b) the unmodified sky_spot Greedy strategy file, asked every tick (--mode cant-be-late);
and the built-in C++ greedy in each mode, to give the per-decision overhead of a Python call; for (b) that overhead
is split into the strategy's own _step and the shim around it (spotsim's per-tick protocol: plain numbers in,
a code out).

usage: PYTHONPATH=build/python bench/python_policy_bench.py TRACE.json   (a converted trace with tick_s)
"""
import json
import math
import sys
import time

from spotsim import _spotsim
from spotsim.options import cli_options
from spotsim.strategy_files import strategy_policy

SD = _spotsim.SelectionDecision
WINDOWS = 300
EXAMPLE = __file__.rsplit("/bench/", 1)[0] + "/policies/examples/sky_spot/greedy_strategy.py"


class ReviewAtGreedy:
    """Greedy in seconds: spot when available, else wait; on-demand for good at the last safe moment, asking to be
    reviewed exactly then (the engine also calls it on preemptions and when spot returns)."""
    def reset(self):
        self.committed = False
        self.calls = getattr(self, "calls", 0)

    def decide(self, obs):
        self.calls += 1
        if self.committed:
            return SD.on_demand()
        d = obs.job["startup"]
        spare = obs.time_to_deadline - (obs.remaining_work + d) - (0 if obs.purchase == _spotsim.Purchase.SPOT else d)
        if spare <= 0:
            self.committed = True
            return SD.on_demand()
        if obs.purchase == _spotsim.Purchase.SPOT:
            return SD.spot(obs.zone, review_at=obs.now + spare)
        return SD.spot(0, review_at=obs.now + spare) if obs.spot_available[0] else SD.wait(review_at=obs.now + spare)


class Counting:
    """Counts the decisions; passes the per-tick protocol through when the policy has it, so that the engine uses it."""
    def __init__(self, policy):
        self.policy, self.calls, self.name = policy, 0, policy.name
        if hasattr(policy, "decide_tick"):
            self.begin = policy.begin
            self.decide_tick = self._counted_tick

    def reset(self):
        self.policy.reset()

    def decide(self, obs):
        self.calls += 1
        return self.policy.decide(obs)

    def _counted_tick(self, *numbers):
        self.calls += 1
        return self.policy.decide_tick(*numbers)


def strategy_own_time(options, starts):
    """Seconds per decision spent inside the strategy's own _step (timed around each call, less the cost of the
    timing itself), so that the shim's overhead can be told apart from the strategy's code."""
    policy = Counting(strategy_policy(EXAMPLE))
    inner, spent = policy.policy.strategy._step, [0.0]
    clock = time.perf_counter

    def timed_step(*args):
        begin = clock()
        result = inner(*args)
        spent[0] += clock() - begin
        return result
    policy.policy.strategy._step = timed_step
    _spotsim.simulate_windows(options, starts, policy)
    begin = clock()
    for _ in range(100000):
        clock()
    per_clock = (clock() - begin) / 100000
    return max(0.0, spent[0] / policy.calls - per_clock)


def timed(options, starts, policy):
    begin = time.perf_counter()
    _spotsim.simulate_windows(options, starts, policy)
    return time.perf_counter() - begin


def main(trace):
    doc = json.load(open(trace))
    tick = doc["tick_s"]
    options = lambda mode, policy: cli_options(trace=trace, policy=policy, checkpoint="continuous", mode=mode,
                                               work="48h", startup="12m", restore="0s", checkpoint_write="0s",
                                               deadline="52h", replications=1, threads=1)
    # Evenly spaced whole-tick starts whose 92.3 h windows (the reference windows' length) fit in the trace.
    last = doc["span_s"] - 554 * tick
    starts = [tick * math.floor(i * last / (WINDOWS - 1) / tick) for i in range(WINDOWS)]
    rows = {}
    # (b) is timed as a user runs it, without the counting wrapper; its decisions are counted in a run of their own.
    counted = Counting(strategy_policy(EXAMPLE))
    timed(options("cant-be-late", "python:x"), starts, counted)
    for label, mode, policy in (("a", "event", ReviewAtGreedy()), ("b", "cant-be-late", strategy_policy(EXAMPLE))):
        policy.calls = 0
        t_py = min(timed(options(mode, "python:x"), starts, policy) for _ in range(3)) / WINDOWS
        calls = policy.calls / 3 if label == "a" else counted.calls
        t_cpp = min(timed(options(mode, "greedy"), starts, None) for _ in range(3)) / WINDOWS
        rows[label] = dict(mode=mode, ms_per_window=1e3 * t_py, cpp_ms_per_window=1e3 * t_cpp,
                           decisions_per_window=calls / WINDOWS,
                           us_per_decision_overhead=1e6 * (t_py - t_cpp) * WINDOWS / calls,
                           speedup_vs_7_5ms=7.5 / (1e3 * t_py), meets_20x=1e3 * t_py <= 7.5 / 20)
    own = strategy_own_time(options("cant-be-late", "python:x"), starts)
    rows["b"]["us_per_decision_in_strategy"] = 1e6 * own
    rows["b"]["us_per_decision_shim"] = rows["b"]["us_per_decision_overhead"] - 1e6 * own
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) == 2 else 2)
    main(sys.argv[1])

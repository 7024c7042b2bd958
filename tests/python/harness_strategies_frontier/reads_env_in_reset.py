"""Reads the env in reset(): the tick length, the elapsed time, the tick and the cluster type held are set by then.
It logs each reset() call in a list made in __init__ and waits for spot up to two hours per call logged before it
goes on-demand (reset() is not idempotent here: how often the harness calls it on one object changes the costs)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_reads_env_in_reset"

    def __init__(self, args=None):
        super().__init__(args)
        self.resets = []

    def solve(self, spec_path):
        return self

    def reset(self, env, task):
        super().reset(env, task)
        self.resets.append((env.gap_seconds, env.elapsed_seconds, env.tick, env.cluster_type))
        self.patience = sum(int(7200 / gap) + int(elapsed) + tick for gap, elapsed, tick, _ in self.resets)
        self.waited = 0

    def _step(self, last_cluster_type, has_spot):
        assert all(held == ClusterType.NONE for _, _, _, held in self.resets)
        if has_spot:
            self.waited = 0
            return ClusterType.SPOT
        self.waited += 1
        return ClusterType.NONE if self.waited <= self.patience else ClusterType.ON_DEMAND

"""Counts reset() calls and keeps state set in __init__ and solve(): the harness builds a new object per run and
resets it twice before the first tick (its simulate() resets the strategy, then the env and the strategy again).
A strategy whose behaviour hinges on that count runs spot-only with two resets, on-demand-only otherwise."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "counts_resets"

    def __init__(self, args=None):
        super().__init__(args)
        self.resets = 0
        self.ticks = 0

    def solve(self, spec_path):
        self.solved = True
        return self

    def reset(self, env, task):
        super().reset(env, task)
        self.resets += 1
        env.switch_region(env.get_num_regions() - 1)  # undone by the env's own reset in between

    def _step(self, last_cluster_type, has_spot):
        self.ticks += 1
        if self.resets == 2 and self.solved and has_spot:
            return ClusterType.SPOT
        return ClusterType.ON_DEMAND if self.resets != 2 else ClusterType.NONE

"""Keeps counters made in __init__: it waits through the first 30 ticks it has ever seen, and after its third
preemption (told it was on spot while spot is gone) stays on on-demand. Each run builds a new Solution, so every run
starts from zero; an object carried over from an earlier run would neither wait nor wait for three preemptions."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_keeps_state"

    def __init__(self, args=None):
        super().__init__(args)
        self.seen = 0
        self.preemptions = 0

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        self.seen += 1
        if last_cluster_type == ClusterType.SPOT and not has_spot:
            self.preemptions += 1
        if self.seen <= 30:
            return ClusterType.NONE
        if self.preemptions >= 3:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT if has_spot else ClusterType.NONE

"""Moves its own deadline far off (self.deadline, which the override reads) and then holds spot only, waiting
whenever it is gone: where a window has too little spot for the 48 h of work, the job is still running when the
recording ends, the next tick asked for is past it, and the run fails."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_waits_past_end"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        self.deadline = 1e9
        return ClusterType.SPOT if has_spot else ClusterType.NONE

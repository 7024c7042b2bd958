"""Asks for spot at every tick whether or not it is there (the base class turns a request for spot without spot into
NONE instead of failing the run), and for on-demand once fewer than three ticks of slack are left."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_asks_spot_blindly"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        left = self.task_duration - sum(self.task_done_time)
        if self.deadline - self.env.elapsed_seconds < left + 3 * self.env.gap_seconds:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT

"""Raises at tick 100: the run fails (and with it, in Frontier-CS, the whole evaluation)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_raises_midway"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        if self.env.tick == 100:
            raise RuntimeError("strategy gave up at tick 100")
        return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND

"""Spot whenever it is there and nothing otherwise: it never picks on-demand itself, so it meets its deadlines only
because the base class's step() forces on-demand once the work left no longer fits (the strong-guarantee override)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_leans_on_override"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.SPOT if has_spot else ClusterType.NONE

"""Moves to the next region every 7th tick even while holding spot, and asks for spot there whether or not it has
any: a move keeps the spot job running where the new region has spot (no restart: the cluster type did not change),
and a spot request where there is none becomes NONE. Never on-demand of its own accord."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "hops_while_on_spot"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        if self.env.tick % 7 == 6:
            self.env.switch_region((self.env.get_current_region() + 1) % self.env.get_num_regions())
        return ClusterType.SPOT

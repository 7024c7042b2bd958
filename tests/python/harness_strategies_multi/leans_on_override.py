"""Spot wherever some region has it (get_all_regions_spot_available), never on-demand: it meets deadlines only
through the base class's strong-guarantee override."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "leans_on_override_multi"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        if has_spot:
            return ClusterType.SPOT
        where = [i for i, up in enumerate(self.env.get_all_regions_spot_available()) if up]
        if where:
            self.env.switch_region(where[0])
            return ClusterType.SPOT
        return ClusterType.NONE

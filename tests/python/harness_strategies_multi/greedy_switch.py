"""Spot where the current region has it; otherwise moves to the next region and waits a tick; on-demand once one
more restart would not fit (exercises switch_region, get_num_regions, get_current_region)."""
import math

from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "greedy_switch"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        env = self.env
        left = self.task_duration - sum(self.task_done_time)
        ticks_left = math.floor((self.deadline - env.elapsed_seconds) / env.gap_seconds)
        if math.ceil((left + 2 * self.restart_overhead) / env.gap_seconds) >= ticks_left:
            return ClusterType.ON_DEMAND
        if has_spot:
            return ClusterType.SPOT
        env.switch_region((env.get_current_region() + 1) % env.get_num_regions())
        return ClusterType.NONE

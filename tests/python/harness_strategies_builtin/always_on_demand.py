"""On-demand every tick: the file counterpart of the built-in `on-demand` (test_harness_policies.py)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "always_on_demand"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.ON_DEMAND

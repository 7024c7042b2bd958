"""Never asks for anything: no work is done, and the run fails when it asks past the window's end (every run, the
stage-1 check included: the file scores nothing)."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "never_starts"

    def solve(self, spec_path):
        return self

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.NONE

    def _apply_strong_guarantee(self, proposed, last_cluster_type):
        return proposed  # (a strategy may override the base class's override; the harness then lets it miss)

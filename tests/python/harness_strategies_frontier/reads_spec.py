"""What solve() is given and what it may set: the namespace the harness built the object with (deadline_hours,
restart_overhead_hours as a one-entry list), the spec file (deadline, duration, overhead, trace_file), and nothing
else yet (the job's figures are set by reset(), after solve()). It replaces self.args, as the problem's
submission_spec.json tells a solution to do, with a deadline one hour earlier than the spec's: reset() reads the
deadline from self.args, so the override works to that earlier deadline. The share of the work it will do on spot
before going on-demand for good is computed from the job's length as solve() finds it (self.task_duration if the
object already has one, else the spec's duration)."""
import json
import os
from argparse import Namespace

from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Solution(Strategy):
    NAME = "frontier_reads_spec"

    def solve(self, spec_path):
        with open(spec_path) as f:
            spec = json.load(f)
        assert float(self.args.deadline_hours) == float(spec["deadline"]), (self.args, spec)
        assert [float(h) for h in self.args.restart_overhead_hours] == [float(spec["overhead"])], (self.args, spec)
        assert os.path.basename(spec["trace_file"]).endswith(".json"), spec
        self.spot_work = 0.8 * getattr(self, "task_duration", float(spec["duration"]) * 3600)
        super().__init__(Namespace(deadline_hours=float(spec["deadline"]) - 1.0,
                                   task_duration_hours=[float(spec["duration"])],
                                   restart_overhead_hours=[float(spec["overhead"])]))
        return self

    def _step(self, last_cluster_type, has_spot):
        if sum(self.task_done_time) >= self.spot_work:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT if has_spot else ClusterType.NONE

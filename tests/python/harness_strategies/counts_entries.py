"""Decides from how many entries task_done_time holds (S5: t + 1 at tick t) and from args the harness passes."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class CountsEntries(Strategy):
    NAME = "counts_entries"

    def _step(self, last_cluster_type, has_spot):
        assert len(self.task_done_time) == self.env.tick + 1, (len(self.task_done_time), self.env.tick)
        assert self.args.deadline_hours * 3600 == self.deadline
        if len(self.task_done_time) % 7 == 0:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

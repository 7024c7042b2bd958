"""Reads the remaining restart overhead (S8: it keeps counting down tick by tick) and halves it when it is more than
one tick, which changes how much work the harness credits."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class WritesOverhead(Strategy):
    NAME = "writes_overhead"

    def _step(self, last_cluster_type, has_spot):
        if self.remaining_restart_overhead > self.env.gap_seconds:
            self.remaining_restart_overhead /= 2
        left = self.task_duration - sum(self.task_done_time)
        if self.deadline - self.env.elapsed_seconds < left + 2 * self.restart_overhead + 2 * self.env.gap_seconds:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

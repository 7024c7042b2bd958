"""Asks for spot at every tick, available or not (S2: the request becomes NONE), and on-demand near the end."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class AsksSpotBlindly(Strategy):
    NAME = "asks_spot_blindly"

    def _step(self, last_cluster_type, has_spot):
        left = self.task_duration - sum(self.task_done_time)
        if self.deadline - self.env.elapsed_seconds < left + 3 * self.env.gap_seconds:
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

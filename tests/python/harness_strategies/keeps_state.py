"""Counts the ticks it has seen in state set in __init__, and waits in the first 30 ticks it ever saw: with a fresh
object per run (S3) every run waits; a reused object would wait in the first run only."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class KeepsState(Strategy):
    NAME = "keeps_state"

    def __init__(self, args):
        super().__init__(args)
        self.seen = 0

    def _step(self, last_cluster_type, has_spot):
        self.seen += 1
        if self.seen <= 30:
            return ClusterType.NONE
        return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

"""Raises an error at tick 100: a failed run (the harness exits non-zero; a score then fails the file)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class RaisesMidway(Strategy):
    NAME = "raises_midway"

    def _step(self, last_cluster_type, has_spot):
        if self.env.tick == 100:
            raise RuntimeError("strategy gave up at tick 100")
        return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

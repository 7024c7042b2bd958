"""Spot whenever it is there, never on-demand of its own accord: it meets deadlines only through the base class's
strong-guarantee override (harness rule S1)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class LeansOnOverride(Strategy):
    NAME = "leans_on_override"

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

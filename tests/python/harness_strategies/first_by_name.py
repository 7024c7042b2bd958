"""Two classes: the ADRS harness runs the one whose attribute name sorts first (Alpha: on-demand only), whatever
the order of definition."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class Beta(Strategy):
    NAME = "first_by_name_beta"

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)


class Alpha(Strategy):
    NAME = "first_by_name_alpha"

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

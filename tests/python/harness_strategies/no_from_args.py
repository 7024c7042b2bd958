"""Defines no _from_args: the ADRS harness's base class raises NotImplementedError when it builds the strategy; two
classes in the file, of which the harness takes the first by attribute name (AAA...)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class ZzzBuilds(Strategy):
    NAME = "zzz_builds"

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)


class AaaNoFromArgs(Strategy):
    NAME = "aaa_no_from_args"

    def _step(self, last_cluster_type, has_spot):
        return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND

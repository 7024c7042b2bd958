"""Goes on-demand for 5 ticks each time it is told it was on spot while spot is gone (S7: on the tick spot is lost,
last_cluster_type is still SPOT)."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class KeysOnLastType(Strategy):
    NAME = "keys_on_last_type"

    def reset(self, env, task):
        super().reset(env, task)
        self.cool = 0

    def _step(self, last_cluster_type, has_spot):
        if last_cluster_type == ClusterType.SPOT and not has_spot:
            self.cool = 5
        if self.cool > 0:
            self.cool -= 1
            return ClusterType.ON_DEMAND
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

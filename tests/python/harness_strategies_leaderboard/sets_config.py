"""Keeps its settings in self.config: the harnesses' base class has a read-only `config` property (simulate() dumps
it with each run's results), so building the object raises and every run fails there."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class SetsConfig(Strategy):
    NAME = "sets_config"

    def __init__(self, args):
        super().__init__(args)
        self.config = {"wait_ticks": 3}
        self.waited = 0

    def _step(self, last_cluster_type, has_spot):
        if has_spot:
            self.waited = 0
            return ClusterType.SPOT
        self.waited += 1
        return ClusterType.NONE if self.waited <= self.config["wait_ticks"] else ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

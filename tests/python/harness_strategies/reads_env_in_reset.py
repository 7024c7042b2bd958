"""Reads the env in reset (S4): the tick length, the elapsed time and the cluster type must be set by then; waits
for spot up to a number of ticks computed from them."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class ReadsEnvInReset(Strategy):
    NAME = "reads_env_in_reset"

    def reset(self, env, task):
        super().reset(env, task)
        self.patience = int(7200 / env.gap_seconds) + int(env.elapsed_seconds) + env.tick
        self.started_as = env.cluster_type
        self.waited = 0

    def _step(self, last_cluster_type, has_spot):
        assert self.started_as == ClusterType.NONE
        if has_spot:
            self.waited = 0
            return ClusterType.SPOT
        self.waited += 1
        return ClusterType.NONE if self.waited <= self.patience else ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

"""Greedy (Wu et al., "Can't Be Late", NSDI'24): spot whenever available, else wait; on-demand for good at the
last tick the deadline allows. Written as a sky_spot strategy file, the style the authors' simulator and the
ADRS/OpenEvolve, GEPA and Frontier-CS benchmarks use; spotsim runs it unmodified (docs/plugins.md).

The rules, in whole ticks of gap g as the authors' simulator rounds them (remaining work C, time left R, d the
restart overhead): commit once ceil((C + 2d)/g)*g >= floor(R/g)*g; a spot instance is kept while
ceil((C + d)/g)*g < R, and once its overhead is paid for as long as spot lasts (the paper's Exploitation Rule).
"""
import math

from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class GreedyStrategy(Strategy):
    NAME = "greedy_example"

    def reset(self, env, task):
        super().reset(env, task)
        self.committed = False

    def _step(self, last_cluster_type, has_spot):
        if self.committed:
            return ClusterType.ON_DEMAND
        gap = self.env.gap_seconds
        left = self.deadline - self.env.elapsed_seconds
        work_left = self.task_duration - sum(self.task_done_time)
        d = self.restart_overhead
        if last_cluster_type == ClusterType.SPOT:
            if math.ceil((work_left + d) / gap) * gap < left or self.remaining_restart_overhead == 0:
                return ClusterType.SPOT
        elif math.ceil((work_left + 2 * d) / gap) * gap < math.floor(left / gap) * gap:
            return ClusterType.SPOT if has_spot else ClusterType.NONE
        self.committed = True
        return ClusterType.ON_DEMAND

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

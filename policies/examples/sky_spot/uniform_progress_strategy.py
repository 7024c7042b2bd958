"""Uniform Progress with hysteresis (Wu et al., "Can't Be Late", NSDI'24, §4), as a sky_spot strategy file that
spotsim runs unmodified (docs/plugins.md). Keep progress on the line t*C/D (C the work, D the deadline):

  - on spot: keep it until preempted (or until the safety net commits to on-demand);
  - behind the line with no spot: on-demand; ahead: spot if available, else wait;
  - on on-demand: stay until spot is available and progress > (t + 2d)*C/D (hysteresis, checked every tick);
    once that holds without spot, stay on on-demand until spot returns rather than going idle;
  - safety net (as Greedy): on-demand for good once ceil((C_rem + 2d)/g)*g >= floor(R/g)*g off spot, or once
    ceil((C_rem + d)/g)*g >= R on a spot instance still paying its overhead.
"""
import math

from sky_spot.strategies import strategy
from sky_spot.utils import ClusterType


class UniformProgressStrategy(strategy.Strategy):
    NAME = "uniform_progress_example"

    def reset(self, env, task):
        super().reset(env, task)
        self.committed = False

    def _must_commit(self, last_cluster_type):
        gap = self.env.gap_seconds
        left = self.deadline - self.env.elapsed_seconds
        work_left = self.task_duration - sum(self.task_done_time)
        d = self.restart_overhead
        if last_cluster_type == ClusterType.SPOT:
            return math.ceil((work_left + d) / gap) * gap >= left and self.remaining_restart_overhead > 0
        return math.ceil((work_left + 2 * d) / gap) * gap >= math.floor(left / gap) * gap

    def _step(self, last_cluster_type, has_spot):
        if self.committed or self._must_commit(last_cluster_type):
            self.committed = True
            return ClusterType.ON_DEMAND
        if last_cluster_type == ClusterType.SPOT:
            return ClusterType.SPOT
        t = self.env.elapsed_seconds
        done = sum(self.task_done_time)
        # Compared as products (done * D vs t * C) so that ties are exact, as integer seconds are.
        if last_cluster_type == ClusterType.ON_DEMAND:
            if done * self.deadline <= (t + 2 * self.restart_overhead) * self.task_duration:
                return ClusterType.ON_DEMAND
            return ClusterType.SPOT if has_spot else ClusterType.ON_DEMAND
        if has_spot:
            return ClusterType.SPOT
        return ClusterType.ON_DEMAND if done * self.deadline < t * self.task_duration else ClusterType.NONE

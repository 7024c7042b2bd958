"""The Strategy base class a sky_spot strategy file subclasses.

Two runners drive it:
- spotsim.strategy_files (the engine's Can't Be Late mode) sets the job's figures in seconds before reset():
  deadline, task_duration, restart_overhead; and before every _step(): env (elapsed_seconds, gap_seconds, tick),
  task_done_time (work done per elapsed tick; its sum is the progress), remaining_restart_overhead.
- spotsim.harness (the public harnesses' semantics, docs/plugins.md#harness-profiles) calls step() once per tick, as
  the harnesses' base class does: step() credits the last tick's work from the cluster type held and the restart
  overhead still due (the strategy's own task_done_time is the progress the run is judged by), asks _step(), applies
  the strong-guarantee override, turns a spot request without spot into NONE, and starts the restart overhead when
  the cluster type changes.
"""
import math

from ..utils import ClusterType


class Strategy:
    NAME = "abstract"

    def __init__(self, args=None):
        # As the harnesses' base class: nothing but args until reset() (a solve() that reads self.deadline, the env
        # or the task fails there, and so here).
        self.args = args

    def reset(self, env, task=None):
        """Called before each window; subclasses that override it call super().reset(env, task)."""
        if getattr(env, "job_from_args", False):
            # The harnesses' base class takes the job's figures from the namespace the strategy was built with
            # (self.args: deadline_hours, restart_overhead_hours, inter_task_overhead) and the task's duration;
            # a strategy built without one fails here, as there.
            args = self.args
            self.deadline = args.deadline_hours * 3600
            self.task_duration = task.get_total_duration_seconds()
            self.restart_overheads = [hours * 3600 for hours in args.restart_overhead_hours]
            self.restart_overhead = self.restart_overheads[0]
            self.inter_task_overheads = [hours * 3600 for hours in getattr(args, "inter_task_overhead", [0.0])]
            self.inter_task_overhead = self.inter_task_overheads[0]
        else:
            self.restart_overheads = [self.restart_overhead]
            self.inter_task_overheads, self.inter_task_overhead = [0.0], 0.0
        self.remaining_inter_task_overhead = 0
        self.task = task
        self.task_done_time = []
        if hasattr(task, "set_progress_source"):
            task.set_progress_source(self.task_done_time)  # the task's progress is this list, as there
        self.remaining_restart_overhead = 0.0
        self.env = env

    @property
    def task_done(self):
        # The harnesses ask the task (its own duration, whatever the strategy makes of self.task_duration); the
        # engine's runner gives no task: done once the work left is within 1e-8 s (the harnesses' test).
        done = getattr(self.task, "is_done", None)
        if done is not None:
            return done
        return max(0.0, self.task_duration - sum(self.task_done_time)) <= 1e-8

    @property
    def name(self):
        return self.NAME

    @property
    def config(self):
        """What the harnesses' simulate() records of the strategy after each run; read-only, as there (a strategy that
        assigns self.config fails when it does)."""
        return {"name": self.NAME, "deadline": self.deadline, "task_duration": self.task_duration,
                "restart_overhead": self.restart_overhead, "restart_overheads": self.restart_overheads,
                "inter_task_overhead": self.inter_task_overhead, "inter_task_overheads": self.inter_task_overheads,
                "task": self.task.get_config()}

    def info(self):
        """What the harness's simulate() logs after every tick (a strategy may override it, and is called so)."""
        task_info = self.task.get_info() if hasattr(self.task, "get_info") else {}
        return {**{f"Task/{k}": v for k, v in task_info.items()},
                "Strategy/RemainingRestartOverhead(seconds)": self.remaining_restart_overhead,
                "Strategy/CurrentRestartOverheadIndex": 0, "Strategy/CurrentInterTaskOverheadIndex": 0,
                "Strategy/RemainingInterTaskOverhead(seconds)": self.remaining_inter_task_overhead}

    def _step(self, last_cluster_type, has_spot):
        raise NotImplementedError(f"strategy {self.NAME!r}: define _step(self, last_cluster_type, has_spot)")

    def _before_decision_hook(self, last_cluster_type, request_type):
        """Called with the final request of each tick, before the restart overhead is started (a subclass hook)."""

    def _apply_strong_guarantee(self, proposed, last_cluster_type):
        """ON_DEMAND once the work left and one restart, in whole ticks, no longer fit in the whole ticks before the
        deadline, unless the job runs on a spot instance whose restart is over."""
        gap = self.env.gap_seconds
        time_left = math.floor((self.deadline - self.env.elapsed_seconds) / gap) * gap
        work_left = self.task_duration - sum(self.task_done_time)
        if work_left <= 1e-3:
            return proposed
        needed = math.ceil((work_left + self.restart_overhead) / gap) * gap
        if needed >= time_left:
            if last_cluster_type == ClusterType.SPOT and self.remaining_restart_overhead < 1e-3:
                return ClusterType.SPOT
            return ClusterType.ON_DEMAND
        return proposed

    def step(self):
        """One tick: realise the last tick's work, decide, and return the cluster type to hold for the next one."""
        env = self.env
        try:
            last_cluster_type, has_spot = env.observe()
        except ValueError:  # past the end of the recording: no spot (Frontier-CS's base class: the run fails)
            if getattr(env, "past_end_fails", False):
                raise
            last_cluster_type, has_spot = ClusterType.NONE, False
        if last_cluster_type == ClusterType.NONE:
            self.task_done_time.append(0)
        else:
            gap = env.gap_seconds
            done = max(gap - self.remaining_restart_overhead, 0)
            self.remaining_restart_overhead -= gap - done
            if self.remaining_restart_overhead < 1e-3:
                self.remaining_restart_overhead = 0
            done = min(done, self.task_duration - sum(self.task_done_time))
            self.task_done_time.append(done)
        proposed = self._step(last_cluster_type, has_spot)
        # (spotsim.harness can run a window without the override, to count the deadlines it saved)
        override = getattr(env, "override_enabled", True)
        request = self._apply_strong_guarantee(proposed, last_cluster_type) if override else proposed
        if request != proposed:
            env.overrides += 1
        self._before_decision_hook(last_cluster_type, request)
        if request == ClusterType.SPOT and not env.spot_available():
            request = ClusterType.NONE
        current = ClusterType.NONE if last_cluster_type == ClusterType.SPOT and not has_spot else last_cluster_type
        if current != request and request != ClusterType.NONE:
            self.remaining_restart_overhead = self.restart_overheads[0] if self.restart_overheads else 0.0
        return request

    @classmethod
    def _from_args(cls, parser):
        """Builds the strategy from the command line (argparse; unknown options are left to others)."""
        args, _ = parser.parse_known_args()
        return cls(args)

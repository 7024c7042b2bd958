"""The Strategy base class a sky_spot strategy file subclasses.

spotsim's runner (spotsim.strategy_files) sets the job's figures in seconds before reset(): deadline,
task_duration, restart_overhead; and before every _step(): env (elapsed_seconds, gap_seconds, tick),
task_done_time (work done per elapsed tick; its sum is the progress), remaining_restart_overhead.
"""


class Strategy:
    NAME = "abstract"

    def __init__(self, args=None):
        self.args = args
        self.env = None
        self.task = None
        self.deadline = 0.0
        self.task_duration = 0.0
        self.restart_overhead = 0.0
        self.task_done_time = []
        self.remaining_restart_overhead = 0.0

    def reset(self, env, task=None):
        """Called before each window; subclasses that override it call super().reset(env, task)."""
        self.env = env
        self.task = task
        self.task_done_time = []
        self.remaining_restart_overhead = 0.0

    @property
    def task_done(self):
        return sum(self.task_done_time) >= self.task_duration

    def _step(self, last_cluster_type, has_spot):
        raise NotImplementedError(f"strategy {self.NAME!r}: define _step(self, last_cluster_type, has_spot)")

    @classmethod
    def _from_args(cls, parser):
        """Builds the strategy from the command line (argparse; unknown options are left to others)."""
        args, _ = parser.parse_known_args()
        return cls(args)

"""Pushes its own deadline far off (self.deadline, which the override reads) and then holds spot only, waiting
whenever it is gone: where a window has too little spot for the 48 h of work, the job is still running when the
554-tick recording ends. The Leaderboard's base class lets the error of the tick past the end fail the run;
ADRS/OpenEvolve's reads that tick as "no spot" and credits no work past the end, so there the run never ends."""
from sky_spot.strategies.strategy import Strategy
from sky_spot.utils import ClusterType


class RunsPastEnd(Strategy):
    NAME = "runs_past_end"

    def _step(self, last_cluster_type, has_spot):
        self.deadline = 1e9
        return ClusterType.SPOT if has_spot else ClusterType.NONE

    @classmethod
    def _from_args(cls, parser):
        args, _ = parser.parse_known_args()
        return cls(args)

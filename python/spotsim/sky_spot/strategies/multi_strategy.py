"""MultiRegionStrategy: the base class of a multi-region `sky_spot` strategy file (Frontier-CS's multi-region
problem, docs/plugins.md#multi-region-strategy-files). Its _step() sees the current region's spot, and may move the
job with env.switch_region(i) (env.get_num_regions(), env.get_current_region(), env.get_all_regions_spot_available()
tell it where spot is). Written from the harness's documented behaviour:

- args.region_switch_overhead_hours (0 when absent, as in every run of the Frontier-CS harness, which never sets it)
  is extra start-up added when a new instance starts from nothing in another region than the last start;
- the class is built as Solution(args), so __init__ takes the harness's argparse namespace.
"""
from .strategy import Strategy
from ..utils import ClusterType


class MultiRegionStrategy(Strategy):
    NAME = "multi_region_strategy"

    def __init__(self, args=None):
        super().__init__(args)
        self.last_startup_region = None
        self.migration_overhead_seconds = getattr(args, "region_switch_overhead_hours", 0.0) * 3600

    @classmethod
    def _from_args(cls, parser):
        group = parser.add_argument_group(cls.NAME)
        group.add_argument("--region-switch-overhead-hours", type=float, default=0.0)
        group.add_argument("--inter-task-overhead", type=float, default=[0.0], nargs="+")
        args, _ = parser.parse_known_args()
        return cls(args)

    def _before_decision_hook(self, last_cluster_type, request_type):
        if self._should_add_migration_overhead(last_cluster_type, request_type):
            self._add_migration_overhead()

    def _should_add_migration_overhead(self, last_cluster_type, request_type):
        """Only a start from nothing (NONE held, something asked for) in another region than the last start."""
        if last_cluster_type != ClusterType.NONE or request_type == ClusterType.NONE:
            return False
        if not hasattr(self.env, "get_current_region"):
            return False
        region = self.env.get_current_region()
        if self.last_startup_region is None:
            self.last_startup_region = region
            return False
        return region != self.last_startup_region

    def _add_migration_overhead(self):
        # (The start-up set right after this hook, when the cluster type changes, replaces what is added here:
        # the harness's order, kept as it is.)
        if self.migration_overhead_seconds > 0:
            self.remaining_restart_overhead += self.migration_overhead_seconds
        self.last_startup_region = self.env.get_current_region()

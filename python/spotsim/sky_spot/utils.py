"""ClusterType: what a strategy asks to hold for the next tick (the name and members strategy files import)."""
import enum


class ClusterType(enum.Enum):
    NONE = "none"
    SPOT = "spot"
    ON_DEMAND = "on_demand"

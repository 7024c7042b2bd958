"""Holds spot in the region with the cheapest spot price now (get_all_regions_spot_prices: None where no spot),
then reads get_price() and get_constant_cost_map() of the region it moved to (a zone's price is read at the tick
that zone was last asked at), and waits when spot costs more than a third of on-demand."""
from sky_spot.strategies.multi_strategy import MultiRegionStrategy
from sky_spot.utils import ClusterType


class Solution(MultiRegionStrategy):
    NAME = "chases_prices"

    def solve(self, spec_path):
        self.seen = []
        return self

    def _step(self, last_cluster_type, has_spot):
        env = self.env
        prices = env.get_all_regions_spot_prices()
        offered = [(p, i) for i, p in enumerate(prices) if p is not None]
        if env.tick % 5 == 0 and offered:
            env.switch_region(min(offered)[1])
        price = env.get_price()[ClusterType.SPOT]
        self.seen.append(price)
        od = env.get_all_regions_ondemand_prices()[env.get_current_region()]
        if env.get_constant_cost_map()[ClusterType.SPOT] > od / 2:
            return ClusterType.ON_DEMAND
        if env.spot_available_in_region(env.get_current_region()) and price < od / 3:
            return ClusterType.SPOT
        return ClusterType.NONE if len(self.seen) % 3 else ClusterType.ON_DEMAND

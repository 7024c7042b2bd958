#pragma once
// Hand-built observations over two regions for the multi-region policy tests: zones 0 and 1 in region 0, zones 2
// and 3 in region 1, spot obtainable everywhere, on-demand 3 USD/h; moving the state between the regions takes
// `transfer` and costs `egress` (set on the views, as Scenario would from Observation::data_zone).
#include <memory>
#include <string>

#include "policies/policy_registry.hpp"
#include "policy_test_support.hpp"

namespace spotsim::testing {

inline std::unique_ptr<SelectionPolicy> selection_policy(const std::string& spec) {
  return builtin_policy_registry().selection_factory(spec)();
}

// Spot prices 0.85, 1.2 (region 0) and 0.8, 0.9 (region 1).
inline ObservationBuilder two_regions() {
  ObservationBuilder b;
  b.zones.clear();
  const double prices[] = {0.85, 1.2, 0.8, 0.9};
  for (int z = 0; z < 4; ++z) {
    ZoneView v;
    v.spot_available = true;
    v.spot_price_per_hour = prices[z];
    v.on_demand_price_per_hour = 3.0;
    v.region = z / 2;
    b.zones.push_back(v);
  }
  return b;
}

// The saved state is in `data_zone`'s region: zones of the other region get the transfer and egress.
inline void place_state(ObservationBuilder& b, int data_zone, Millis transfer, double egress) {
  b.obs.data_zone = data_zone;
  for (ZoneView& v : b.zones) {
    const bool other = v.region != b.zones[static_cast<std::size_t>(data_zone)].region;
    v.migration_time = other ? transfer : 0;
    v.migration_cost = other ? egress : 0.0;
  }
}

inline void at(ObservationBuilder& b, Millis t) { b.obs.now = b.obs.elapsed = t; }

}  // namespace spotsim::testing

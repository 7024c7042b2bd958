// uniform-progress-multi: the Can't Be Late rule over several regions (zone order, transfer, and that it decides
// exactly as uniform-progress when all zones share one region).
#include <gtest/gtest.h>

#include "multi_region_observations.hpp"

namespace spotsim {
namespace {

using testing::at;
using testing::selection_policy;
using testing::two_regions;

TEST(UniformProgressMulti, PrefersTheStateRegionOverACheaperRegionElsewhere) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  testing::place_state(b, 0, 10 * kMillisPerMinute, 5.0);
  b.zones[0].spot_available = false;
  EXPECT_EQ(selection_policy("uniform-progress-multi")->decide(b.build()).zone, 1) << "1.2 here, no move";
  EXPECT_EQ(selection_policy("uniform-progress")->decide(b.build()).zone, 2) << "the single-region rule";
}

TEST(UniformProgressMulti, AmongOtherRegionsTakesTheLowestPriceCountingTheMove) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.zones.push_back(ZoneView{true, 0.7, 3.0});
  b.zones.back().region = 2;
  testing::place_state(b, 0, 10 * kMillisPerMinute, 5.0);
  b.zones[0].spot_available = b.zones[1].spot_available = false;
  // Zone 2: 0.8 + (0.8/6 + 5) / 48 = 0.907; zone 4: 0.7 + (0.7/6 + 20) / 48 = 1.119.
  b.zones[4].migration_cost = 20.0;
  EXPECT_EQ(selection_policy("uniform-progress-multi")->decide(b.build()).zone, 2);
  b.zones[4].migration_cost = 2.0;  // 0.7 + (0.117 + 2) / 48 = 0.744
  EXPECT_EQ(selection_policy("uniform-progress-multi")->decide(b.build()).zone, 4);
}

TEST(UniformProgressMulti, CatchesUpOnOnDemandInTheStateRegion) {
  auto b = two_regions();
  b.job.deadline = 70 * kMillisPerHour;
  b.zones[2].on_demand_price_per_hour = 2.0;
  testing::place_state(b, 0, 10 * kMillisPerMinute, 5.0);
  for (auto& z : b.zones) z.spot_available = false;
  at(b, 5 * kMillisPerHour);  // behind the line, no spot: uniform progress catches up on on-demand
  const auto d = selection_policy("uniform-progress-multi")->decide(b.build());
  EXPECT_EQ(d.purchase, Purchase::kOnDemand);
  EXPECT_EQ(b.zones[static_cast<std::size_t>(d.zone)].region, 0);
}

TEST(UniformProgressMulti, DecidesAsUniformProgressWhenAllZonesShareOneRegion) {
  // A walk through states (waiting, on spot, on on-demand; ahead of and behind the line; spot here and there):
  // both policies, fed the same observations, must agree at every step.
  auto b = testing::cant_be_late(60 * kMillisPerHour);
  b.zones = {ZoneView{true, 1.0, 3.0}, ZoneView{true, 0.9, 3.1}, ZoneView{true, 1.1, 2.9}};
  auto single = selection_policy("uniform-progress");
  auto multi = selection_policy("uniform-progress-multi");
  for (int step = 0; step < 200; ++step) {
    at(b, step * 17 * kMillisPerMinute);
    b.obs.progress = std::min<Millis>(b.job.work - 1, step * ((step % 7) + 5) * kMillisPerMinute);
    for (std::size_t z = 0; z < b.zones.size(); ++z) b.zones[z].spot_available = ((step + z) % 3) != 0;
    const auto a = single->decide(b.build());
    const auto c = multi->decide(b.build());
    ASSERT_EQ(a.purchase, c.purchase) << step;
    ASSERT_EQ(a.zone, c.zone) << step;
    ASSERT_EQ(a.review_at, c.review_at) << step;
    b.obs.purchase = a.purchase;
    b.obs.zone = a.zone;
  }
}

}  // namespace
}  // namespace spotsim

// Restricting a market to regions or zones (model/market/zone_selection.hpp) and the sweep spec's trace entries.
#include <gtest/gtest.h>

#include "app/sweep/experiment_spec.hpp"
#include "model/market/zone_selection.hpp"
#include "tests/support/market_builder.hpp"
#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

SpotMarket three_region_market() {
  return testing::MarketBuilder("m")
      .zone("a1", "ra", "x")
      .zone("b1", "rb", "x")
      .zone("a2", "ra", "x")
      .zone("c1", "rc", "x")
      .egress_between_all_regions(0.02)
      .build();
}

std::vector<std::string> zone_names(const SpotMarket& m) {
  std::vector<std::string> names;
  for (const Zone& z : m.zones) names.push_back(z.name);
  return names;
}

TEST(ZoneSelection, RegionsKeepTheMarketsOrderAndTheirEgress) {
  const SpotMarket m = select_zones(three_region_market(), {ZoneSelection::By::kRegions, {"rc", "ra"}}, "--regions");
  EXPECT_EQ(zone_names(m), (std::vector<std::string>{"a1", "a2", "c1"}));
  EXPECT_EQ(m.migration.egress.size(), 2u);
  EXPECT_TRUE(m.migration.egress_usd_per_gb("ra", "rc"));
  EXPECT_FALSE(m.migration.egress_usd_per_gb("ra", "rb"));
}

TEST(ZoneSelection, ZonesAndAll) {
  EXPECT_EQ(zone_names(select_zones(three_region_market(), {ZoneSelection::By::kZones, {"b1"}}, "--zones")),
            (std::vector<std::string>{"b1"}));
  EXPECT_EQ(select_zones(three_region_market(), {}, "--zones").zones.size(), 4u);
}

TEST(ZoneSelection, RefusesUnknownDuplicateAndEmpty) {
  const auto error = [](ZoneSelection s) {
    return testing::error_of([&] { select_zones(three_region_market(), s, "--regions"); });
  };
  EXPECT_NE(error({ZoneSelection::By::kRegions, {"rz"}}).find("has no region 'rz'; its regions are: ra, rb, rc"),
            std::string::npos);
  EXPECT_NE(error({ZoneSelection::By::kZones, {"zz"}}).find("its zones are: a1, b1, a2, c1"), std::string::npos);
  EXPECT_NE(error({ZoneSelection::By::kRegions, {"ra", "ra"}}).find("listed twice"), std::string::npos);
  EXPECT_NE(error({ZoneSelection::By::kRegions, {}}).find("at least one region"), std::string::npos);
  SpotMarket v1 = three_region_market();
  for (Zone& z : v1.zones) z.region.clear();
  EXPECT_NE(testing::error_of([&] {
              select_zones(v1, {ZoneSelection::By::kRegions, {"ra"}}, "--regions");
            }).find("has no regions"),
            std::string::npos);
}

TEST(ZoneSelection, SplitsCommaLists) {
  EXPECT_EQ(split_name_list("us-central1, us-east4", "--regions"),
            (std::vector<std::string>{"us-central1", "us-east4"}));
  EXPECT_NE(testing::error_of([] { split_name_list("", "--regions"); }).find("--regions ''"), std::string::npos);
  EXPECT_NE(testing::error_of([] { split_name_list("a,,b", "--zones"); }).find("without empty entries"),
            std::string::npos);
}

ExperimentSpec spec_with_traces(const std::string& traces) {
  return parse_experiment_spec(nlohmann::json::parse(R"({"format":"spotsim-experiment","version":1,"name":"s",
      "replications":2,"policies":["adaptive"],"traces":)" +
                                                     traces + "}"),
                               "s.json");
}

TEST(SweepTraceEntries, PlainStringsStayStringsAndObjectsSelect) {
  const ExperimentSpec spec = spec_with_traces(
      R"(["us-west1", {"trace":"gcp-h100-13-zones","regions":["us-central1"],"name":"one"}, {"trace":"gcp-h100-13-zones","zones":["us-east4-a"]}])");
  EXPECT_EQ(spec.traces, (std::vector<std::string>{"us-west1", "gcp-h100-13-zones", "gcp-h100-13-zones"}));
  EXPECT_EQ(spec.canonical["traces"][0], "us-west1");
  EXPECT_EQ(spec.canonical["traces"][1]["regions"][0], "us-central1");
  const SpotMarket m = market_of_entry(
      spec.trace_entries[2], read_trace_file(testing::repo_path("traces/library/gcp-h100-13-zones.json")), "");
  EXPECT_EQ(m.name, "gcp-h100-13-zones/us-east4-a");
  EXPECT_EQ(m.zones.size(), 1u);
}

TEST(SweepTraceEntries, RefusesBadEntries) {
  const auto error = [](const std::string& t) { return testing::error_of([&] { spec_with_traces(t); }); };
  EXPECT_NE(error(R"([{"trace":"x","regions":["a"],"zones":["b"]}])").find("either 'regions' or 'zones'"),
            std::string::npos);
  EXPECT_NE(error(R"([{"trace":"x","regions":[]}])").find("traces[0].regions"), std::string::npos);
  EXPECT_NE(error(R"([{"trace":"x","region":["a"]}])").find("region"), std::string::npos);
  EXPECT_NE(error(R"(["a","a"])").find("each entry once"), std::string::npos);
  EXPECT_NE(error(R"([3])").find("traces[0]"), std::string::npos);
}

}  // namespace
}  // namespace spotsim

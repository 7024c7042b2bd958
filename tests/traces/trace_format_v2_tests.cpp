// Trace format v2 (docs/trace-format.md#regions-and-migration): regions, continents and the migration object
// are read and validated, written back identically, and version-1 traces still read as before.
#include <gtest/gtest.h>

#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {
namespace {

// Two zones in two regions of one continent, with `migration` spliced in (and zone fields overridable).
std::string v2_trace(const std::string& migration, const std::string& zone_b = R"("region":"r2","continent":"c1")") {
  return R"({"format":"spotsim-trace","version":2,"name":"t",)" + migration +
         R"("zones":[{"name":"a","region":"r1","continent":"c1","on_demand_price_per_hour":3,"spot":{"price_per_hour":1}},)"
         R"({"name":"b",)" +
         zone_b + R"(,"on_demand_price_per_hour":3,"spot":{"price_per_hour":1}}]})";
}
const std::string kBothPairs =
    R"("migration":{"egress":[{"from":"r1","to":"r2","usd_per_gb":0.02},{"from":"r2","to":"r1","usd_per_gb":0.05}]},)";

std::string reader_error(const std::string& text) {
  return testing::error_of([&] { parse_trace(nlohmann::json::parse(text), "t.json"); });
}

void expect_error(const std::string& text, const std::string& fragment) {
  const std::string message = reader_error(text);
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
  EXPECT_NE(message.find("t.json"), std::string::npos) << message;
}

TEST(TraceFormatV2, ReadsRegionsContinentsAndMigration) {
  const SpotMarket m = parse_trace(
      nlohmann::json::parse(v2_trace(
          R"("migration":{"same_continent_gbps":5,"cross_continent_gbps":1.5,"egress":[{"from":"r1","to":"r2","usd_per_gb":0.02},{"from":"r2","to":"r1","usd_per_gb":0.05}]},)")),
      "t.json");
  ASSERT_EQ(m.zones.size(), 2u);
  EXPECT_EQ(m.zones[0].region, "r1");
  EXPECT_EQ(m.zones[1].region, "r2");
  EXPECT_EQ(m.zones[1].continent, "c1");
  EXPECT_DOUBLE_EQ(m.migration.same_continent_gbps, 5.0);
  EXPECT_DOUBLE_EQ(m.migration.cross_continent_gbps, 1.5);
  EXPECT_DOUBLE_EQ(*m.migration.egress_usd_per_gb("r1", "r2"), 0.02);
  EXPECT_DOUBLE_EQ(*m.migration.egress_usd_per_gb("r2", "r1"), 0.05);
}

TEST(TraceFormatV2, BandwidthsDefaultToTheMeasuredTiers) {
  const SpotMarket m = parse_trace(nlohmann::json::parse(v2_trace(kBothPairs)), "t.json");
  EXPECT_DOUBLE_EQ(m.migration.same_continent_gbps, MigrationModel{}.same_continent_gbps);
  EXPECT_DOUBLE_EQ(m.migration.cross_continent_gbps, MigrationModel{}.cross_continent_gbps);
}

TEST(TraceFormatV2, OneRegionNeedsNoEgressTable) {
  EXPECT_EQ(reader_error(v2_trace("", R"("region":"r1","continent":"c1")")), "");
}

TEST(TraceFormatV2, RefusesWhatV2Requires) {
  expect_error(v2_trace(kBothPairs, R"("continent":"c1")"), "field 'zones[1].region'");
  expect_error(v2_trace(kBothPairs, R"("region":"","continent":"c1")"), "zones[1].region");
  expect_error(v2_trace(kBothPairs, R"("region":"r2","continent":"")"), "zones[1].continent");
  expect_error(v2_trace(kBothPairs, R"("region":"r1","continent":"c2")"),
               "the continent of the other zones of region 'r1'");
  expect_error(v2_trace(""), "missing r1 -> r2");
  expect_error(v2_trace(R"("migration":{"egress":[{"from":"r1","to":"r2","usd_per_gb":0.02}]},)"), "missing r2 -> r1");
  expect_error(
      v2_trace(
          R"("migration":{"egress":[{"from":"r1","to":"r2","usd_per_gb":-1},{"from":"r2","to":"r1","usd_per_gb":0}]},)"),
      "migration.egress[0].usd_per_gb");
  expect_error(v2_trace(R"("migration":{"same_continent_gbps":0,)" + kBothPairs.substr(13)),
               "migration.same_continent_gbps");
  expect_error(v2_trace(R"("migration":{"cross_continent_gbps":-2,)" + kBothPairs.substr(13)),
               "migration.cross_continent_gbps");
  expect_error(
      v2_trace(
          R"("migration":{"egress":[{"from":"r1","to":"r9","usd_per_gb":0.02},{"from":"r1","to":"r2","usd_per_gb":0.02},{"from":"r2","to":"r1","usd_per_gb":0.02}]},)"),
      "regions of the trace's zones, got 'r9'");
  expect_error(
      v2_trace(
          R"("migration":{"egress":[{"from":"r1","to":"r2","usd_per_gb":0.02},{"from":"r1","to":"r2","usd_per_gb":0.03},{"from":"r2","to":"r1","usd_per_gb":0.02}]},)"),
      "one price per ordered pair");
  expect_error(v2_trace(R"("migration":{"egress":[{"from":"r1","to":"r1","usd_per_gb":0.02}]},)"),
               "a region other than 'from'");
  expect_error(v2_trace(R"("migration":{"bandwidth":1},)"), "bandwidth");
  expect_error(v2_trace(R"("migration":{"egress":[{"from":"r1","to":"r2","usd":1}]},)"), "usd");
}

TEST(TraceFormatV2, Version1RefusesTheV2Fields) {
  const std::string v1 =
      R"({"format":"spotsim-trace","version":1,"name":"t",)"
      R"("zones":[{"name":"a","region":"r1","on_demand_price_per_hour":3,"spot":{"price_per_hour":1}}]})";
  expect_error(v1, "region");
  expect_error(
      R"({"format":"spotsim-trace","version":1,"name":"t","migration":{},"zones":[{"name":"a","on_demand_price_per_hour":3,"spot":{"price_per_hour":1}}]})",
      "migration");
  expect_error(R"({"format":"spotsim-trace","version":3,"name":"t","zones":[]})", "1 or 2");
}

TEST(TraceFormatV2, RoundTripsThroughTheWriter) {
  const SpotMarket m = parse_trace(nlohmann::json::parse(v2_trace(kBothPairs)), "t.json");
  const nlohmann::json written = trace_to_json(m);
  EXPECT_EQ(written["version"], 2);
  const SpotMarket back = parse_trace(written, "written");
  EXPECT_EQ(trace_to_json(back), written);
  EXPECT_EQ(back.zones[1].region, "r2");
  EXPECT_DOUBLE_EQ(*back.migration.egress_usd_per_gb("r2", "r1"), 0.05);
}

TEST(TraceFormatV2, Version1TracesReadAndWriteAsVersion1) {
  for (const char* name : {"us-west1", "aws-us-west-2-v100", "gcp-us-central1-c"}) {
    SCOPED_TRACE(name);
    const SpotMarket m = read_trace_file(testing::repo_path("traces/library/") + name + ".json");
    for (const Zone& z : m.zones) EXPECT_EQ(z.region, "");
    const nlohmann::json written = trace_to_json(m);
    EXPECT_EQ(written["version"], 1);
    EXPECT_FALSE(written.contains("migration"));
    EXPECT_EQ(trace_to_json(parse_trace(written, "written")), written);
  }
}

}  // namespace
}  // namespace spotsim

// The SkyNomad multi-region importers on the real shared data (skipped without ../shared), and the shipped
// traces they produced: counts, ticks, spans, availability and prices as the data's README states them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "base/json_fields.hpp"
#include "base/shipped_library.hpp"
#include "trace_test_paths.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/trace_importer.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {
namespace {

const std::string kData = "skynomad-multi-region/";

// A folder of per-zone files, or (skynomad-gcp-counts) the one probe CSV.
SpotMarket import_folder(const std::string& format, const std::string& folder) {
  return import_trace_file(testing::shared_path(kData + folder), format, ImportOptions{}).market;
}

double spot_available_fraction(const SpotMarket& m) {
  double available = 0.0;
  for (const Zone& z : m.zones) available += z.spot.available->fraction_where([](double v) { return v >= 1.0; });
  return available / static_cast<double>(m.zones.size());
}

TEST(SkyNomadGcpImporter, ThirteenZonesOfEightRegionsOnTenMinuteTicks) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket m = import_folder("skynomad-gcp", "gcp-h100-13-zones");
  EXPECT_EQ(m.zones.size(), 13u);
  EXPECT_EQ(market_regions(m).size(), 8u);
  EXPECT_EQ(m.tick, 600 * kMillisPerSecond);
  EXPECT_EQ(m.span, 2114 * 600 * kMillisPerSecond);  // 14.7 days
  EXPECT_NEAR(to_hours(m.span) / 24.0, 14.0, 1.0);
  EXPECT_EQ(m.migration.egress.size(), 8u * 7u);
  for (const Zone& z : m.zones) {
    EXPECT_EQ(z.region + "-" + z.name.back(), z.name);
    EXPECT_TRUE(z.continent == "north-america" || z.continent == "europe" || z.continent == "asia") << z.continent;
    EXPECT_TRUE(z.spot.price_per_hour.is_constant());
  }
}

// The data's 1 = unavailable: after inversion, the share of available zone-ticks is the README's 76.7%. (That
// figure counts the 27,352 probe rows; the aligned JSON files hold 27,482 zone-ticks, of which 76.24% are
// available. The test recounts the raw files independently of the importer.)
TEST(SkyNomadGcpImporter, AvailabilityIsTheInverseOfTheData) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket m = import_folder("skynomad-gcp", "gcp-h100-13-zones");
  std::size_t ticks = 0, unavailable = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::shared_path(kData + "gcp-h100-13-zones"))) {
    const nlohmann::json doc = read_json_file(entry.path().string());
    for (const auto& v : doc["data"]) ++ticks, unavailable += v.get<int>();
  }
  EXPECT_EQ(ticks, 13u * 2114u);
  const double raw_available = 1.0 - static_cast<double>(unavailable) / static_cast<double>(ticks);
  EXPECT_NEAR(spot_available_fraction(m), raw_available, 1e-12);
  EXPECT_NEAR(spot_available_fraction(m), 0.767, 0.006);
}

// The recorded prices are for an 8-GPU a3-highgpu-8g; the importer divides by 8. The price cache holds the
// same 8-GPU price built from its components (GPU, CPU, RAM).
TEST(SkyNomadGcpImporter, PricesArePerOneGpuInstance) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket m = import_folder("skynomad-gcp", "gcp-h100-13-zones");
  for (const Zone& z : m.zones) {
    SCOPED_TRACE(z.name);
    const nlohmann::json cache =
        read_json_file(testing::shared_path(kData + "gcp-price-cache/" + z.region + "_a3-highgpu-8g.json"));
    double components = 0.0;
    for (const auto& c : cache["components"]) components += c["component_total"].get<double>();
    EXPECT_NEAR(components, cache["price"].get<double>(), 1e-6);
    EXPECT_NEAR(z.spot.price_per_hour.values().front() * 8.0, cache["price"].get<double>(), 1e-9);
    EXPECT_NEAR(z.on_demand_price_per_hour * 8.0, cache["on_demand_price"].get<double>(), 1e-9);
    EXPECT_LT(z.spot.price_per_hour.values().front(), z.on_demand_price_per_hour);
  }
}

TEST(SkyNomadAwsImporter, NineZonesOfThreeRegionsWithPerTickPrices) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket m = import_folder("skynomad-aws", "aws-v100-9-zones");
  EXPECT_EQ(m.zones.size(), 9u);
  EXPECT_EQ(market_regions(m), (std::vector<std::string>{"us-east-1", "us-east-2", "us-west-2"}));
  EXPECT_EQ(m.tick, 195 * kMillisPerSecond);
  EXPECT_EQ(m.span, 20158 * 195 * kMillisPerSecond);
  EXPECT_NEAR(to_hours(m.span) / 24.0, 45.0, 1.0);
  double lowest = 1e9, highest = 0.0;
  for (const Zone& z : m.zones) {
    EXPECT_EQ(z.continent, "north-america");
    EXPECT_DOUBLE_EQ(z.on_demand_price_per_hour, 3.06);
    EXPECT_FALSE(z.spot.price_per_hour.is_constant());
    lowest = std::min(lowest, z.spot.price_per_hour.min_value());
    highest = std::max(highest, z.spot.price_per_hour.max_value());
  }
  EXPECT_DOUBLE_EQ(lowest, 0.918);
  EXPECT_DOUBLE_EQ(highest, 1.8464);
  // Only the pairs among the trace's three regions, from the artifact's table.
  EXPECT_EQ(m.migration.egress.size(), 6u);
  EXPECT_DOUBLE_EQ(*m.migration.egress_usd_per_gb("us-east-1", "us-east-2"), 0.01);
  EXPECT_DOUBLE_EQ(*m.migration.egress_usd_per_gb("us-west-2", "us-east-1"), 0.02);
}

TEST(ShippedMultiRegionTraces, EqualAFreshImport) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  struct Shipped {
    std::string format, input, trace;
  };
  for (const auto& [format, input, trace] :
       std::vector<Shipped>{{"skynomad-gcp", "gcp-h100-13-zones", "gcp-h100-13-zones"},
                            {"skynomad-aws", "aws-v100-9-zones", "aws-v100-9-zones"},
                            {"skynomad-gcp-counts", "gcp-h100-probe-counts.csv", "gcp-h100-capacity-13-zones"}}) {
    SCOPED_TRACE(trace);
    const SpotMarket fresh = import_folder(format, input);
    const SpotMarket shipped = read_trace_file(testing::repo_path("traces/library/" + trace + ".json"));
    EXPECT_EQ(trace_to_json(shipped), trace_to_json(fresh));
  }
}

TEST(ShippedMultiRegionTraces, BareNamesFindThem) {
  for (const char* name : {"gcp-h100-13-zones", "aws-v100-9-zones", "gcp-h100-capacity-13-zones"}) {
    const SpotMarket m = read_trace_file(locate_trace(name));
    EXPECT_EQ(m.name, name);
    EXPECT_FALSE(m.provenance.notes.empty());
    EXPECT_NE(m.provenance.notes.find("trace convert --from skynomad-"), std::string::npos);
    EXPECT_EQ(m.provenance.license, "Apache-2.0");
  }
}

TEST(EgressTables, AwsHoldsTheArtifactsPairsAndGcpEveryPairOfItsRegions) {
  EXPECT_EQ(read_egress_table(testing::repo_path("traces/library/catalogue/egress/aws.csv")).size(), 1122u);
  const std::vector<std::string> gcp = {"us-central1",  "us-east4",     "us-east5",        "us-west1",
                                        "europe-west1", "europe-west3", "asia-southeast1", "asia-south2"};
  EXPECT_EQ(shipped_egress_prices("gcp", gcp).size(), 56u);
  const std::string missing = testing::error_of([] { shipped_egress_prices("gcp", {"us-central1", "me-west1"}); });
  EXPECT_NE(missing.find("no egress price from us-central1 to me-west1"), std::string::npos) << missing;
}

TEST(CloudGeography, RegionsAndContinentsFromZoneNames) {
  EXPECT_EQ(gcp_region_of_zone("us-central1-a"), "us-central1");
  EXPECT_EQ(aws_region_of_zone("us-east-1f"), "us-east-1");
  EXPECT_EQ(continent_of_region("europe-west3"), "europe");
  EXPECT_EQ(continent_of_region("ap-south-1"), "asia");
  EXPECT_NE(testing::error_of([] { continent_of_region("mars-1"); }).find("cannot tell its continent"),
            std::string::npos);
  EXPECT_NE(testing::error_of([] { aws_region_of_zone("us-east-1"); }).find("AWS zone name"), std::string::npos);
}

TEST(SkyNomadImporters, RefuseAFileOrAFolderWithoutTheirFiles) {
  const std::string file = testing::repo_path("traces/library/us-west1.json");
  EXPECT_NE(testing::error_of([&] { import_trace_file(file, "skynomad-gcp", {}); }).find("expected a folder"),
            std::string::npos);
  const std::string folder = testing::repo_path("traces/library");
  EXPECT_NE(
      testing::error_of([&] { import_trace_file(folder, "skynomad-aws", {}); }).find("no file named *_v100_1.csv"),
      std::string::npos);
  EXPECT_NE(testing::error_of([&] {
              import_trace_file(folder, "auto", {});
            }).find("is a directory; only --from skynomad-gcp"),
            std::string::npos);
}

}  // namespace
}  // namespace spotsim

// AWS spot price history and GCP preemption operations, on fixtures written from the public API documentation.
#include <gtest/gtest.h>

#include "trace_test_paths.hpp"
#include "traces/importers/timestamps.hpp"
#include "traces/importers/trace_importer.hpp"

namespace spotsim {
namespace {

using testing::fixture_path;

TEST(Timestamps, Iso8601WithOffsetsAndFractions) {
  // 2019-03-25T12:22:36.614-07:00 = 19:22:36.614 UTC; 1553541756614 ms since the epoch.
  EXPECT_EQ(parse_timestamp("2019-03-25T12:22:36.614-07:00"), 1553541756614);
  EXPECT_EQ(parse_timestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_timestamp("2024-02-29 23:59:59"), 1709251199000);  // leap day, space separator, no offset = UTC
  EXPECT_FALSE(parse_timestamp("2023-02-29T00:00:00Z"));             // not a leap year
  EXPECT_FALSE(parse_timestamp("2023-13-01T00:00:00Z"));
  EXPECT_FALSE(parse_timestamp("2023-01-01T00:00:00+0700"));
  EXPECT_FALSE(parse_timestamp("yesterday"));
}

TEST(AwsSpotPriceImporter, SortsNewestFirstListAndBackFillsEachZone) {
  const ImportedTrace t = import_trace_file(fixture_path("aws_spot_price_history.json"), "auto", {});
  EXPECT_EQ(t.format, "aws-spot-prices");
  EXPECT_TRUE(t.records_spot_prices);
  EXPECT_EQ(t.market.span, 3 * kMillisPerHour + 30 * kMillisPerMinute);  // 12:00 .. 14:30, plus one hour
  ASSERT_EQ(t.market.zones.size(), 2u);
  const Zone& a = t.market.zones[1];  // first seen in the file: 2b, then 2a
  EXPECT_EQ(a.name, "us-west-2a");
  EXPECT_EQ(a.instance_type, "p3.2xlarge");
  EXPECT_DOUBLE_EQ(a.spot.price_per_hour.at(0), 0.918);
  EXPECT_DOUBLE_EQ(a.spot.price_per_hour.at(kMillisPerHour), 0.940);
  const Zone& b = t.market.zones[0];
  EXPECT_DOUBLE_EQ(b.spot.price_per_hour.at(0), 0.9305);  // its first price, from 12:15, holds from the start
  EXPECT_DOUBLE_EQ(b.spot.price_per_hour.at(2 * kMillisPerHour + 30 * kMillisPerMinute), 0.954);
  EXPECT_EQ(b.spot.notice, 120 * kMillisPerSecond);
  EXPECT_FALSE(b.spot.available);  // prices say nothing about capacity
}

TEST(GcpPreemptionImporter, SortsEventsPerZoneAndSkipsOtherOperations) {
  const ImportedTrace t = import_trace_file(fixture_path("gcp_preemption_operations.json"), "auto", {});
  EXPECT_EQ(t.format, "gcp-preemptions");
  ASSERT_EQ(t.market.zones.size(), 2u);
  const Zone& central = t.market.zones[0];
  EXPECT_EQ(central.name, "us-central1-a");
  // 01:05 and 03:20:11.412 (-07:00): relative to the first preemption of the file.
  EXPECT_EQ(central.spot.preemption_times,
            (std::vector<Millis>{0, 2 * kMillisPerHour + 15 * kMillisPerMinute + 11412}));
  EXPECT_EQ(t.market.zones[1].spot.preemption_times, (std::vector<Millis>{55 * kMillisPerMinute}));
  // Span: the last preemption plus the mean interval between the three preemptions.
  const Millis last = 2 * kMillisPerHour + 15 * kMillisPerMinute + 11412;
  EXPECT_EQ(t.market.span, last + last / 2);
  EXPECT_EQ(central.spot.preemption_period, t.market.span);
  EXPECT_NE(t.market.provenance.notes.find("1 operations of other types"), std::string::npos);
}

TEST(FormatDetection, NamesEveryRealFormat) {
  EXPECT_EQ(detect_trace_format(R"({"metadata":{"gap_seconds":60},"data":[1]})", "x"), "cant-be-late");
  EXPECT_EQ(detect_trace_format(R"({"SpotPriceHistory":[]})", "x"), "aws-spot-prices");
  EXPECT_EQ(detect_trace_format(R"([{"operationType":"compute.instances.preempted"}])", "x"), "gcp-preemptions");
  EXPECT_EQ(detect_trace_format(R"({"vm":{"instance_data":{}}})", "x"), "gcp-lifetime-json");
  EXPECT_EQ(detect_trace_format(R"({"format":"spotsim-trace"})", "x"), "spotsim");
  EXPECT_EQ(detect_trace_format("0,add,node1\n", "x"), "node-events");
  EXPECT_EQ(detect_trace_format("2021-12-11, 11:11:30, 55\n", "x"), "instance-counts");
  EXPECT_EQ(detect_trace_format("0,5\n", "x"), "instance-counts");
  EXPECT_EQ(detect_trace_format("name,lifetime_s,preempted\n", "x"), "lifetime-csv");
  EXPECT_NE(testing::error_of([] {
              detect_trace_format("hello world\n", "notes.txt");
            }).find("notes.txt: cannot tell the format"),
            std::string::npos);
}

}  // namespace
}  // namespace spotsim

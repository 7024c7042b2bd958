// The SkyNomad GCP H100 capacity importer (skynomad-gcp-counts): each rule and each refusal on small synthetic
// CSVs (with a price folder beside them, as in the data), then the real probe file (skipped without ../shared)
// against the binary gcp-h100-13-zones trace made from the same probes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "trace_test_paths.hpp"
#include "traces/importers/trace_importer.hpp"

namespace spotsim {
namespace {

const std::string kHeader = "scheduled_at,zone,requested,created,capacity_exhausted_detected,status\n";

// A scratch folder holding probes.csv and gcp-h100-13-zones/<zone>_h100_16.json (8-GPU prices 16 and 80 $/h).
class ProbeFolder {
 public:
  explicit ProbeFolder(const std::string& tag)
      : dir_(std::filesystem::temp_directory_path() / ("spotsim-counts-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "gcp-h100-13-zones");
    for (const char* zone : {"us-east4-a", "us-east4-b", "europe-west3-c"}) price_file(zone, zone);
  }
  ~ProbeFolder() { std::filesystem::remove_all(dir_); }
  ProbeFolder(const ProbeFolder&) = delete;
  ProbeFolder& operator=(const ProbeFolder&) = delete;

  // The price file of `file_zone` naming `recorded_zone` in its metadata.
  void price_file(const std::string& file_zone, const std::string& recorded_zone) const {
    const std::string region = recorded_zone.substr(0, recorded_zone.rfind('-'));
    std::ofstream(dir_ / "gcp-h100-13-zones" / (file_zone + "_h100_16.json"))
        << R"({"metadata": {"gap_seconds": 600, "start_time": "2025-10-04T00:10:00+00:00", "zone": ")" << recorded_zone
        << R"(", "price_info": {"region": ")" << region
        << R"(", "machine_type": "a3-highgpu-8g", "price": 16.0, "on_demand_price": 80.0}}, "data": [0], "prices": [16.0]})";
  }
  void remove_price_file(const std::string& zone) const {
    std::filesystem::remove(dir_ / "gcp-h100-13-zones" / (zone + "_h100_16.json"));
  }
  std::string csv(const std::string& rows) const {
    const std::string path = (dir_ / "probes.csv").string();
    std::ofstream(path) << rows;
    return path;
  }
  ImportedTrace import(const std::string& rows, const std::string& format = "skynomad-gcp-counts") const {
    return import_trace_file(csv(rows), format, ImportOptions{});
  }
  // The error of importing `rows`; it must name the CSV.
  std::string error(const std::string& rows) const {
    const std::string message = testing::error_of([&] { import(rows); });
    EXPECT_NE(message.find("probes.csv"), std::string::npos) << message;
    return message;
  }

 private:
  std::filesystem::path dir_;
};

// One row: minute offset after 2025-10-03T17:10 local time (-07:00), zone, created, status.
std::string row(int minutes, const std::string& zone, int created, const std::string& status = "success") {
  const int total = 10 + minutes;  // minutes after 17:00 (at most 49 minutes here)
  char time[64];
  std::snprintf(time, sizeof time, "2025-10-03T%02d:%02d:00.002281-07:00", 17 + total / 60, total % 60);
  return std::string(time) + "," + zone + ",16," + std::to_string(created) + "," + std::to_string(16 - created) + "," +
         status + "\n";
}

double at_round(const Zone& zone, int round) { return zone.spot.available->at(round * 600 * kMillisPerSecond + 1); }

TEST(SkyNomadGcpCounts, CountPerRoundOnTheUtcClockWithTheBinaryTracesPrices) {
  const ProbeFolder folder("basic");
  // The second round of us-east4-b is written in UTC (00:20Z = 17:20-07:00): aligned with the others.
  const std::string rows = kHeader + row(0, "us-east4-a", 16) + row(0, "us-east4-b", 3) + row(10, "us-east4-a", 0) +
                           "2025-10-04T00:20:00.004Z,us-east4-b,16,16,0,success\n" + row(20, "us-east4-a", 7) +
                           row(20, "us-east4-b", 16);
  const ImportedTrace t = folder.import(rows, "auto");  // the header identifies the format
  EXPECT_EQ(t.format, "skynomad-gcp-counts");
  const SpotMarket& m = t.market;
  EXPECT_EQ(m.name, "gcp-h100-capacity-2-zones");
  EXPECT_EQ(m.tick, 600 * kMillisPerSecond);
  EXPECT_EQ(m.span, 3 * 600 * kMillisPerSecond);
  ASSERT_EQ(m.zones.size(), 2u);
  EXPECT_EQ(m.zones[0].name, "us-east4-a");
  EXPECT_EQ((std::vector<double>{at_round(m.zones[0], 0), at_round(m.zones[0], 1), at_round(m.zones[0], 2)}),
            (std::vector<double>{16, 0, 7}));
  EXPECT_EQ((std::vector<double>{at_round(m.zones[1], 0), at_round(m.zones[1], 1), at_round(m.zones[1], 2)}),
            (std::vector<double>{3, 16, 16}));
  for (const Zone& z : m.zones) {
    EXPECT_EQ(z.region, "us-east4");
    EXPECT_EQ(z.continent, "north-america");
    EXPECT_EQ(z.instance_type, "a3-highgpu-1g");
    EXPECT_EQ(z.gpu, "H100");
    EXPECT_EQ(z.gpus_per_instance, 1);
    EXPECT_DOUBLE_EQ(z.spot.price_per_hour.values().front(), 2.0);  // 16 / 8
    EXPECT_DOUBLE_EQ(z.on_demand_price_per_hour, 10.0);             // 80 / 8
    EXPECT_EQ(z.spot.notice, 30 * kMillisPerSecond);
  }
  EXPECT_NE(m.provenance.notes.find("0 of 6 zone-rounds"), std::string::npos) << m.provenance.notes;
  EXPECT_EQ(m.provenance.license, "Apache-2.0");
}

TEST(SkyNomadGcpCounts, RowOrderAndProbeJitterDoNotMatter) {
  const ProbeFolder folder("order");
  // Rows in reverse, and a round 40 s late: still the second round.
  const std::string late = "2025-10-03T17:20:40-07:00,us-east4-a,16,5,11,success\n";
  const SpotMarket m = folder.import(kHeader + row(20, "us-east4-a", 9) + late + row(0, "us-east4-a", 2)).market;
  EXPECT_EQ(m.span, 3 * 600 * kMillisPerSecond);
  EXPECT_EQ(at_round(m.zones[0], 0), 2);
  EXPECT_EQ(at_round(m.zones[0], 1), 5);
  EXPECT_EQ(at_round(m.zones[0], 2), 9);
}

TEST(SkyNomadGcpCounts, AMissingRoundCarriesThePreviousCount) {
  const ProbeFolder folder("missing");
  const std::string rows = kHeader + row(0, "us-east4-a", 4) + row(0, "us-east4-b", 1) + row(10, "us-east4-b", 2) +
                           row(20, "us-east4-b", 3) + row(30, "us-east4-a", 9) + row(30, "us-east4-b", 4);
  const SpotMarket m = folder.import(rows).market;
  EXPECT_EQ(at_round(m.zones[0], 1), 4);
  EXPECT_EQ(at_round(m.zones[0], 2), 4);
  EXPECT_EQ(at_round(m.zones[0], 3), 9);
  EXPECT_NE(m.provenance.notes.find("2 of 8 zone-rounds had no successful probe"), std::string::npos)
      << m.provenance.notes;
  EXPECT_NE(m.provenance.notes.find("longest run: 2 rounds, in us-east4-a after the round of 2025-10-03T17:10"),
            std::string::npos)
      << m.provenance.notes;
}

TEST(SkyNomadGcpCounts, AFailedProbeCountsAsMissing) {
  const ProbeFolder folder("failed");
  const std::string rows =
      kHeader + row(0, "us-east4-a", 12) + row(10, "us-east4-a", 0, "quota_exceeded") + row(20, "us-east4-a", 3);
  const SpotMarket m = folder.import(rows).market;
  EXPECT_EQ(at_round(m.zones[0], 1), 12);  // not the failed probe's 0
  EXPECT_NE(m.provenance.notes.find("status other than success (counted as missing): quota_exceeded 1"),
            std::string::npos)
      << m.provenance.notes;
}

TEST(SkyNomadGcpCounts, TheLastRoundsMissingCarryToTheEnd) {
  const ProbeFolder folder("tail");
  const SpotMarket m =
      folder.import(kHeader + row(0, "us-east4-a", 6) + row(0, "us-east4-b", 1) + row(20, "us-east4-b", 2)).market;
  EXPECT_EQ(m.span, 3 * 600 * kMillisPerSecond);
  EXPECT_EQ(at_round(m.zones[0], 2), 6);
}

TEST(SkyNomadGcpCounts, RefusesMalformedRowsNamingLineAndField) {
  const ProbeFolder folder("refuse");
  const auto expect = [&](const std::string& rows, const std::string& fragment) {
    const std::string message = folder.error(rows);
    EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
  };
  expect("", "probes.csv: empty file; expected the header scheduled_at,zone,requested,created");
  expect("time,zone,count\n", "probes.csv:1: header: expected the header");
  expect(kHeader, "rows: expected at least one probe row");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,3\n", "probes.csv:2: row: expected 6 fields");
  expect(kHeader + "2025-10-03T17:10:00,us-east4-a,16,3,13,success\n",
         "probes.csv:2: scheduled_at: expected a time with its UTC offset");
  expect(kHeader + "2025-13-03T17:10:00-07:00,us-east4-a,16,3,13,success\n", "probes.csv:2: scheduled_at");
  expect(kHeader + "2025-10-03T17:10:00-07:00,useast4a,16,3,13,success\n", "probes.csv:2: zone: expected a GCP zone");
  expect(kHeader + "2025-10-03T17:10:00-07:00,mars-west1-a,16,3,13,success\n", "probes.csv:2: zone");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,0,0,0,success\n",
         "probes.csv:2: requested: expected an integer in [1,");
  expect(kHeader + row(0, "us-east4-a", 3) + "2025-10-03T17:10:00-07:00,us-east4-b,8,3,5,success\n",
         "probes.csv:3: requested: expected the first row's 16 in every row, got '8'");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,17,0,success\n",
         "probes.csv:2: created: expected an integer in [0, 16], got '17'");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,2.5,0,success\n", "probes.csv:2: created");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,-1,0,success\n", "probes.csv:2: created");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,10,7,success\n",
         "probes.csv:2: capacity_exhausted_detected: expected at most requested - created = 6");
  expect(kHeader + "2025-10-03T17:10:00-07:00,us-east4-a,16,10,6,\n", "probes.csv:2: status: expected a probe status");
}

TEST(SkyNomadGcpCounts, RefusesRoundsOffTheClockAndRepeatedRounds) {
  const ProbeFolder folder("clock");
  const auto expect = [&](const std::string& rows, const std::string& fragment) {
    const std::string message = folder.error(rows);
    EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
  };
  expect(kHeader + row(0, "us-east4-a", 3) + row(5, "us-east4-a", 3),
         "probes.csv:3: scheduled_at: expected a round 600 s apart from the first one");
  // The same round twice, once in UTC: the second row is refused, naming the first.
  expect(kHeader + row(0, "us-east4-a", 3) + "2025-10-04T00:10:00Z,us-east4-a,16,3,13,success\n",
         "probes.csv:3: zone: expected one row per zone and round; us-east4-a at 2025-10-04T00:10:00Z was already "
         "probed at line 2");
  expect(kHeader + row(0, "us-east4-a", 3) + row(0, "us-east4-a", 3), "already probed at line 2");
  expect(kHeader + row(0, "us-east4-a", 3) + row(10, "us-east4-b", 3),
         "zone us-east4-b: expected a successful probe in the first round, got the first at 2025-10-03T17:20");
  expect(kHeader + row(0, "us-east4-a", 3) + row(0, "us-east4-b", 3, "error"),
         "zone us-east4-b: expected a successful probe in the first round, got none at all");
  expect(kHeader + "1970-01-01T00:00:00Z,us-east4-a,16,3,13,success\n2500-01-01T00:00:00Z,us-east4-a,16,3,13,success\n",
         "probes.csv:3: scheduled_at: expected at most 1e10 s after the first round");
}

TEST(SkyNomadGcpCounts, RefusesAZoneWithoutItsPriceFile) {
  const ProbeFolder folder("prices");
  folder.remove_price_file("us-east4-b");
  std::string message = folder.error(kHeader + row(0, "us-east4-a", 3) + row(0, "us-east4-b", 3));
  EXPECT_NE(message.find("zone us-east4-b: expected its prices in"), std::string::npos) << message;
  EXPECT_NE(message.find("us-east4-b_h100_16.json"), std::string::npos) << message;
  folder.price_file("us-east4-b", "us-east4-a");  // a file that records another zone
  message = testing::error_of([&] { folder.import(kHeader + row(0, "us-east4-b", 3)); });
  EXPECT_NE(message.find("field 'metadata.zone': expected us-east4-b, got 'us-east4-a'"), std::string::npos) << message;
}

// --- the real probe file -------------------------------------------------------------------------------------

const std::string kData = "skynomad-multi-region/";

SpotMarket real_counts() {
  return import_trace_file(testing::shared_path(kData + "gcp-h100-probe-counts.csv"), "skynomad-gcp-counts", {}).market;
}

double mean_count(const Zone& z) {
  return z.spot.available->integrate_hours(0, z.spot.available->span()) / to_hours(z.spot.available->span());
}

TEST(SkyNomadGcpCountsRealData, ThirteenZonesOn2114TicksWithTheBinaryTracesPlacesAndPrices) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket counts = real_counts();
  const SpotMarket binary =
      import_trace_file(testing::shared_path(kData + "gcp-h100-13-zones"), "skynomad-gcp", {}).market;
  EXPECT_EQ(counts.tick, 600 * kMillisPerSecond);
  EXPECT_EQ(counts.span, binary.span);  // 2,114 ticks: 2,104 probed rounds and 10 missing ones
  EXPECT_EQ(counts.span, 2114 * 600 * kMillisPerSecond);
  ASSERT_EQ(counts.zones.size(), 13u);
  EXPECT_EQ(counts.migration.egress.size(), binary.migration.egress.size());
  EXPECT_NE(counts.provenance.notes.find("130 of 27482 zone-rounds had no successful probe"), std::string::npos)
      << counts.provenance.notes;
  EXPECT_NE(counts.provenance.notes.find("longest run: 10 rounds"), std::string::npos) << counts.provenance.notes;
  for (std::size_t i = 0; i < counts.zones.size(); ++i) {
    const Zone& c = counts.zones[i];
    const Zone& b = binary.zones[i];
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.name, b.name);
    EXPECT_EQ(c.region, b.region);
    EXPECT_EQ(c.continent, b.continent);
    EXPECT_EQ(c.instance_type, b.instance_type);
    EXPECT_EQ(c.gpu, b.gpu);
    EXPECT_DOUBLE_EQ(c.on_demand_price_per_hour, b.on_demand_price_per_hour);
    EXPECT_DOUBLE_EQ(c.spot.price_per_hour.values().front(), b.spot.price_per_hour.values().front());
    EXPECT_GE(c.spot.available->min_value(), 0.0);
    EXPECT_LE(c.spot.available->max_value(), 16.0);
  }
}

// The binary files hold the same probes, thresholded at >= 1 launched, except for ticks 696..755: there the
// authors joined two runs and filled 60 ticks with each zone's last state (metadata.gap_filled), while the CSV
// has 50 of those rounds measured (ticks 696..745) and misses 10 (746..755).
TEST(SkyNomadGcpCountsRealData, AtLeastOneLaunchedIsTheBinaryAvailabilityOutsideItsFilledGap) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket counts = real_counts();
  const SpotMarket binary =
      import_trace_file(testing::shared_path(kData + "gcp-h100-13-zones"), "skynomad-gcp", {}).market;
  std::size_t compared = 0, available = 0, ticks = 0;
  for (std::size_t z = 0; z < counts.zones.size(); ++z) {
    for (Millis tick = 0; tick < 2114; ++tick) {
      const Millis t = tick * 600 * kMillisPerSecond + 1;
      const double count = counts.zones[z].spot.available->at(t);
      ++ticks;
      available += count >= 1.0 ? 1 : 0;
      if (tick >= 696 && tick <= 755) continue;
      ++compared;
      EXPECT_EQ(count >= 1.0, binary.zones[z].spot.available->at(t) >= 1.0) << counts.zones[z].name << " tick " << tick;
    }
  }
  EXPECT_EQ(compared, 13u * (2114u - 60u));
  // The README's 76.7% of zone-ticks with at least one launch (it counts the 27,352 probe rows: 76.71%); with the
  // 130 carried zone-ticks, 76.67%.
  EXPECT_NEAR(static_cast<double>(available) / static_cast<double>(ticks), 0.7667, 5e-5);
}

TEST(SkyNomadGcpCountsRealData, PerZoneMeanCountsAsDocumented) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const SpotMarket counts = real_counts();
  // docs/traces.md's table (tools/docs/count_trace_summary.py on the shipped file).
  const std::vector<std::pair<std::string, double>> expected = {
      {"asia-south2-b", 15.974}, {"asia-southeast1-b", 12.089}, {"asia-southeast1-c", 8.375}, {"europe-west1-c", 6.606},
      {"europe-west3-c", 1.803}, {"us-central1-a", 14.825},     {"us-central1-b", 9.054},     {"us-central1-c", 12.668},
      {"us-east4-a", 11.985},    {"us-east4-b", 9.404},         {"us-east5-a", 9.030},        {"us-west1-a", 8.562},
      {"us-west1-b", 2.611}};
  ASSERT_EQ(counts.zones.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(counts.zones[i].name, expected[i].first);
    EXPECT_NEAR(mean_count(counts.zones[i]), expected[i].second, 5e-4) << expected[i].first;
  }
}

}  // namespace
}  // namespace spotsim

// Every importer on the real shared files, checked against the raw data read independently here.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "base/json_fields.hpp"
#include "trace_test_paths.hpp"
#include "traces/importers/trace_importer.hpp"

namespace spotsim {
namespace {

using testing::shared_path;

const std::string kAvailability2022 = "aws-gcp-spot-availability/availability/1-node/aws-10-26-2022/";

// The availability series must give back the recorded count of every tick.
void expect_ticks_replayed(const StepSeries& series, const nlohmann::json& data, Millis step) {
  ASSERT_EQ(series.span(), static_cast<Millis>(data.size()) * step);
  for (std::size_t i = 0; i < data.size(); ++i) {
    ASSERT_EQ(series.at(static_cast<Millis>(i) * step + step / 2), data[i].get<double>()) << "tick " << i;
  }
}

TEST(CantBeLateImporter, SingleNodeAvailabilityReplaysEveryTick) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const std::string path = shared_path(kAvailability2022 + "us-west-2a_v100_1.json");
  const ImportedTrace t = import_trace_file(path, "auto", {});
  EXPECT_EQ(t.format, "cant-be-late");
  ASSERT_EQ(t.market.zones.size(), 1u);
  const Zone& zone = t.market.zones.front();
  EXPECT_EQ(zone.name, "us-west-2a");                   // from the file name
  EXPECT_EQ(zone.spot.notice, 120 * kMillisPerSecond);  // an AWS zone
  const nlohmann::json raw = read_json_file(path);
  expect_ticks_replayed(*zone.spot.available, raw["data"], 600 * kMillisPerSecond);
  // Run-length compression: far fewer points than ticks.
  EXPECT_LT(zone.spot.available->times().size(), raw["data"].size() / 5);
  EXPECT_FALSE(t.records_spot_prices);
}

TEST(CantBeLateImporter, MultiNodeCountsAndPerTickPrices) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const std::string counts =
      shared_path("aws-gcp-spot-availability/availability/16-node/aws-08-27-2023/us-west-2a_v100_1.json");
  const ImportedTrace multi = import_trace_file(counts, "cant-be-late", {});
  const nlohmann::json raw = read_json_file(counts);
  expect_ticks_replayed(*multi.market.zones.front().spot.available, raw["data"], 300 * kMillisPerSecond);
  EXPECT_EQ(multi.market.zones.front().spot.available->max_value(), 16.0);

  const std::string priced =
      shared_path("aws-gcp-spot-availability/preemption/1-node/aws-04-19-2023/us-east-1b_intel_64.json");
  const ImportedTrace t = import_trace_file(priced, "auto", {});
  ASSERT_TRUE(t.records_spot_prices);
  const nlohmann::json prices = read_json_file(priced)["prices"];
  const StepSeries& price = t.market.zones.front().spot.price_per_hour;
  for (std::size_t i = 0; i < prices.size(); ++i) {
    ASSERT_DOUBLE_EQ(price.at(static_cast<Millis>(i) * 34000 + 17000), prices[i].get<double>()) << "tick " << i;
  }
}

TEST(CantBeLateImporter, GcpZoneGetsGcpNotice) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const ImportedTrace t = import_trace_file(
      shared_path("aws-gcp-spot-availability/preemption/1-node/gcp-04-30-2023/us-east1-b_c3-88.json"), "auto", {});
  EXPECT_EQ(t.market.zones.front().name, "us-east1-b");
  EXPECT_EQ(t.market.zones.front().spot.notice, 30 * kMillisPerSecond);
}

TEST(NodeEventImporter, BambooP3LogCountsNodesAndLifetimes) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const ImportedTrace t = import_trace_file(shared_path("bamboo-node-events/traces/p3-trace.csv"), "auto", {});
  EXPECT_EQ(t.format, "node-events");
  const StepSeries& a = *t.market.zones.front().spot.available;
  // Tallied from the file independently: 177 adds, 167 removes, the last event at 40,920,000 ms; events are
  // minute-aligned, so the recording runs one minute past it.
  EXPECT_EQ(t.market.span, 40'920'000 + 60'000);
  EXPECT_EQ(a.at(t.market.span - 1), 10.0);
  const auto preempted =
      std::count_if(t.lifetimes.begin(), t.lifetimes.end(), [](const auto& l) { return l.record.preempted; });
  EXPECT_EQ(preempted, 167);
  EXPECT_EQ(t.lifetimes.size(), 177u);  // 10 still running at the end: censored
}

TEST(InstanceCountImporter, ParcaeCountsEqualBambooLogTheyWereDerivedFrom) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  ImportOptions ms;
  ms.time_unit = 1;
  const ImportedTrace counts = import_trace_file(shared_path("parcae-node-events/aws/traces/p3.csv"), "auto", ms);
  const ImportedTrace events = import_trace_file(shared_path("bamboo-node-events/traces/p3-trace.csv"), "auto", {});
  EXPECT_EQ(counts.format, "instance-counts");
  const StepSeries& a = *counts.market.zones.front().spot.available;
  const StepSeries& b = *events.market.zones.front().spot.available;
  EXPECT_EQ(a.times(), b.times());
  EXPECT_EQ(a.values(), b.values());
}

TEST(InstanceCountImporter, GcloudRunningCounts) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const ImportedTrace t =
      import_trace_file(shared_path("bamboo-node-events/traces/gcloud/a100x1-east1b.txt"), "auto", {});
  const StepSeries& a = *t.market.zones.front().spot.available;
  EXPECT_EQ(a.at(0), 55.0);                                     // "2021-12-11, 11:11:30, 55"
  EXPECT_EQ(a.at((4 * 60 + 20) * kMillisPerSecond + 1), 54.0);  // "11:15:50, 54" is 4 min 20 s in
  EXPECT_EQ(t.market.zones.front().spot.notice, 30 * kMillisPerSecond);
}

TEST(InstanceCountImporter, BambooPlotFileInSeconds) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  ImportOptions seconds;
  seconds.time_unit = kMillisPerSecond;
  const ImportedTrace t = import_trace_file(
      shared_path(
          "bamboo-node-events/doc/data/aws-spot-instances-p2-xlarge-us-east-1e-2020-11-23-1700-to-2020-11-24-0700.csv"),
      "auto", seconds);
  const StepSeries& a = *t.market.zones.front().spot.available;
  EXPECT_EQ(a.at(0), 10.0);
  EXPECT_EQ(a.at(41093 * kMillisPerSecond), 9.0);  // "41093,10" then "41093,9": the last row at a time wins
  EXPECT_EQ(a.at(41885 * kMillisPerSecond), 10.0);
}

TEST(LifetimeImporters, CsvAndPublishedJsonAgreeVmForVm) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const ImportedTrace csv = import_trace_file(shared_path("gcp-preemptible-lifetimes/lifetimes.csv"), "auto", {});
  const ImportedTrace json = import_trace_file(shared_path("gcp-preemptible-lifetimes/data/data.json"), "auto", {});
  EXPECT_EQ(csv.format, "lifetime-csv");
  EXPECT_EQ(json.format, "gcp-lifetime-json");
  ASSERT_EQ(csv.lifetimes.size(), 1442u);
  ASSERT_EQ(json.lifetimes.size(), 1442u);
  auto tally = [](const ImportedTrace& t) {
    std::map<std::string, std::vector<std::pair<double, bool>>> by_zone;
    for (const auto& l : t.lifetimes) by_zone[l.zone].emplace_back(l.record.hours, l.record.preempted);
    for (auto& [zone, v] : by_zone) std::sort(v.begin(), v.end());
    return by_zone;
  };
  const auto a = tally(csv), b = tally(json);
  ASSERT_EQ(a.size(), 6u);
  for (const auto& [zone, records] : a) {
    ASSERT_EQ(records.size(), b.at(zone).size()) << zone;
    for (std::size_t i = 0; i < records.size(); ++i) {
      EXPECT_NEAR(records[i].first, b.at(zone)[i].first, 1e-9) << zone;
      EXPECT_EQ(records[i].second, b.at(zone)[i].second) << zone;
    }
  }
  const auto preempted =
      std::count_if(csv.lifetimes.begin(), csv.lifetimes.end(), [](const auto& l) { return l.record.preempted; });
  EXPECT_EQ(preempted, 717);  // the other 725 were stopped by their user: censored
  EXPECT_EQ(csv.market.zones.size(), 6u);
  for (const Zone& z : csv.market.zones) EXPECT_TRUE(z.spot.lifetime.has_value()) << z.name;
}

TEST(LifetimeImporters, OnlyZoneKeepsOneZone) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  ImportOptions only;
  only.only_zone = "us-west1-a";
  const ImportedTrace t = import_trace_file(shared_path("gcp-preemptible-lifetimes/lifetimes.csv"), "auto", only);
  ASSERT_EQ(t.market.zones.size(), 1u);
  const auto& empirical = std::get<EmpiricalLifetime>(t.market.zones.front().spot.lifetime->model());
  EXPECT_EQ(empirical.record_count(), 242u);
  EXPECT_EQ(empirical.event_count(), 135u);
}

TEST(MergeImported, ZonesOfSeveralFilesInOneMarket) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  std::vector<ImportedTrace> parts;
  parts.push_back(import_trace_file(shared_path(kAvailability2022 + "us-west-2a_v100_1.json"), "auto", {}));
  parts.push_back(import_trace_file(shared_path(kAvailability2022 + "us-west-2b_v100_1.json"), "auto", {}));
  const ImportedTrace merged = merge_imported(std::move(parts));
  ASSERT_EQ(merged.market.zones.size(), 2u);
  EXPECT_EQ(merged.market.zones[1].name, "us-west-2b");
  EXPECT_EQ(merged.market.span, 3895LL * 600 * kMillisPerSecond);
}

TEST(MergeImported, DifferentLengthsAreCutToTheShortest) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  const std::string dir = "aws-gcp-spot-availability/availability/16-node/aws-08-27-2023/";
  std::vector<ImportedTrace> parts;
  parts.push_back(import_trace_file(shared_path(dir + "us-east-2b_v100_1.json"), "auto", {}));  // 3247 ticks
  parts.push_back(import_trace_file(shared_path(dir + "us-west-2a_v100_1.json"), "auto", {}));  // 4736 ticks
  const ImportedTrace merged = merge_imported(std::move(parts));
  EXPECT_EQ(merged.market.span, 3247LL * 300 * kMillisPerSecond);
  EXPECT_EQ(merged.market.zones[1].spot.available->span(), merged.market.span);
  EXPECT_NE(merged.market.provenance.notes.find("cut to the shortest"), std::string::npos);
}

TEST(MergeImported, SameZoneTwiceIsAnError) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  std::vector<ImportedTrace> parts;
  parts.push_back(import_trace_file(shared_path(kAvailability2022 + "us-west-2a_v100_1.json"), "auto", {}));
  parts.push_back(import_trace_file(shared_path(kAvailability2022 + "us-west-2a_k80_1.json"), "auto", {}));
  EXPECT_NE(
      testing::error_of([&] { merge_imported(std::move(parts)); }).find("zone 'us-west-2a' comes from two inputs"),
      std::string::npos);
}

}  // namespace
}  // namespace spotsim

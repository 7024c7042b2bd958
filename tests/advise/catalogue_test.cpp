// The committed GPU offer catalogue (traces/library/catalogue/gpu_offers.json): it reads, every preemption source
// resolves, GPUs are in the spec table (or are the documented exceptions), prices and AWS interruption bands
// match the shared source tables they were compiled from, and malformed catalogues fail naming the field.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "advise_test_support.hpp"
#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/errors.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {
namespace {

GpuOfferCatalogue shipped() { return read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers")); }

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::stringstream parts(line);
    for (std::string cell; std::getline(parts, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

TEST(Catalogue, ShippedCatalogueReadsAndLinksEveryOffer) {
  const GpuOfferCatalogue c = shipped();
  ASSERT_GE(c.offers.size(), 30u);
  std::set<std::string> clouds, gpus;
  for (const GpuOffer& o : c.offers) {
    clouds.insert(o.cloud);
    gpus.insert(o.gpu);
    const PreemptionSource& s = c.source_of(o);
    EXPECT_TRUE(s.spot.lifetime || s.spot.available || !s.spot.preemption_times.empty()) << o.label();
    EXPECT_GT(o.on_demand_per_hour, o.spot_per_hour) << o.label();
    EXPECT_FALSE(o.date.empty());
    EXPECT_FALSE(o.source.empty());
    // GPUs without a spec-table row can still be ranked when a job file gives their step time.
    if (o.gpu != "A10G" && o.gpu != "L40S") {
      EXPECT_NE(find_gpu_spec(o.gpu), nullptr) << o.gpu;
    }
  }
  EXPECT_EQ(clouds, (std::set<std::string>{"aws", "gcp"}));
  for (const char* gpu : {"T4", "V100", "A100-40GB", "A100-80GB", "L4", "A10G", "L40S", "H100"}) {
    EXPECT_TRUE(gpus.contains(gpu)) << gpu;
  }
}

TEST(Catalogue, SourcesStateTheirBasis) {
  const GpuOfferCatalogue c = shipped();
  EXPECT_EQ(c.sources.at("gcp-default-bathtub").basis, "default");
  EXPECT_EQ(c.sources.at("gcp-us-central1-c-recorded").basis, "recorded");
  EXPECT_TRUE(c.sources.at("aws-us-west-2a-p3-recorded").spot.available.has_value());
  EXPECT_EQ(c.sources.at("aws-us-west-2a-p3-recorded").spot.notice, 120 * kMillisPerSecond);
  EXPECT_EQ(c.sources.at("gcp-default-bathtub").spot.lifetime->name(), "bathtub");
}

// The band -> lifetime conversion of the AWS default sources is tested in aws_band_test.cpp.

TEST(Catalogue, PricesMatchTheSharedPriceTable) {
  if (!test::have_shared_preemption_data()) GTEST_SKIP() << "no ../shared data";
  const auto rows = read_csv(test::shared_dir() + "/data/preemption/gpu_prices.csv");
  const GpuOfferCatalogue c = shipped();
  int compared = 0;
  for (const auto& row : rows) {
    if (row.size() < 7 || row[0] == "cloud") continue;
    for (const GpuOffer& o : c.offers) {
      if (o.cloud != row[0] || o.region != row[1] || o.instance_type != row[2]) continue;
      EXPECT_NEAR(o.on_demand_per_hour, std::stod(row[5]), 1e-6) << o.label();
      EXPECT_NEAR(o.spot_per_hour, std::stod(row[6]), 1e-6) << o.label();
      EXPECT_EQ(o.gpus_per_instance, std::stoi(row[4])) << o.label();
      EXPECT_EQ(o.gpu, canonical_gpu_name(row[3])) << o.label();
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
}

TEST(Catalogue, AwsOffersUseTheirAdvisorBand) {
  if (!test::have_shared_preemption_data()) GTEST_SKIP() << "no ../shared data";
  const std::map<std::string, std::string> band_of_label = {
      {"<5%", "lt5"}, {"5-10%", "5-10"}, {"10-15%", "10-15"}, {"15-20%", "15-20"}, {">20%", "gt20"}};
  std::map<std::string, std::string> advisor;  // "region instance" -> band key
  for (const auto& row :
       read_csv(test::shared_dir() + "/data/preemption/aws-spot-advisor/gpu_spot_advisor_linux.csv")) {
    if (row.size() == 5 && band_of_label.contains(row[4])) advisor[row[0] + " " + row[1]] = band_of_label.at(row[4]);
  }
  int checked = 0;
  for (const GpuOffer& o : shipped().offers) {
    if (o.cloud != "aws" || !o.preemption.starts_with("aws-advisor-band-")) continue;
    ASSERT_TRUE(advisor.contains(o.region + " " + o.instance_type)) << o.label();
    EXPECT_EQ(o.preemption, "aws-advisor-band-" + advisor.at(o.region + " " + o.instance_type)) << o.label();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(Catalogue, MalformedCataloguesNameTheField) {
  test::AdviseTempDir dir("catalogue");
  const nlohmann::json good = test::one_offer_catalogue(3.0, 1.0, 1, 10.0);
  EXPECT_NO_THROW(read_gpu_offer_catalogue(dir.write("good.json", good)));
  const auto expect_error = [&](nlohmann::json doc, const std::string& message) {
    const std::string file = dir.write("bad.json", doc);
    try {
      read_gpu_offer_catalogue(file);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
  };
  nlohmann::json doc = good;
  doc["offers"][0]["preemption"] = "nope";
  expect_error(doc, "offers[0].preemption");
  doc = good;
  doc["offers"][0]["spot_per_hour"] = -1;
  expect_error(doc, "offers[0].spot_per_hour");
  doc = good;
  doc["offers"][0]["colour"] = "red";
  expect_error(doc, "colour");
  doc = good;
  doc["offers"].push_back(doc["offers"][0]);
  expect_error(doc, "appears twice");
  doc = good;
  doc["preemption_sources"]["exp"]["trace"] = "us-west1";
  expect_error(doc, "exactly one of 'trace' or 'lifetime'");
  doc = good;
  doc["preemption_sources"]["t"] = {{"trace", "us-west1"}, {"zone", "mars-1a"}, {"basis", "recorded"}};
  expect_error(doc, "preemption_sources.t.zone");
  doc = good;
  doc["preemption_sources"]["exp"]["basis"] = "guess";
  expect_error(doc, "basis");
  doc = good;
  doc["version"] = 2;
  expect_error(doc, "version");
}

}  // namespace
}  // namespace spotsim

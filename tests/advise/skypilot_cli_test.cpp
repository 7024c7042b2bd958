// `spotsim advise --catalogue` on SkyPilot catalogues (docs/advise.md#skypilot): the shared snapshot ranks offers
// of all five providers, the shipped conversion (skypilot-v7.json) is exactly what --write-catalogue writes from
// it, an on-demand-only offer runs under on-demand alone and says so, and an unpriced offer is listed as skipped.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "advise_test_support.hpp"
#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/shipped_library.hpp"

namespace spotsim {
namespace {

using test::CliResult;
using test::run_advise;

// A 1-GPU job measured on a V100, few replications: the ranking, not its precision, is under test.
const std::vector<std::string> kJob = {"--steps", "20000", "--step-time", "95ms",      "--measured-gpu",
                                       "V100",    "-n",    "4",           "--threads", "1"};

std::vector<std::string> job_with(std::vector<std::string> extra) {
  std::vector<std::string> args = kJob;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The command that regenerates the shipped file (docs/advise.md#skypilot), written to `out`.
CliResult write_snapshot(const std::string& out) {
  return run_advise({"--catalogue", test::skypilot_snapshot_dir(), "--catalogue-date", "2026-11-27", "--catalogue-note",
                     "Snapshot taken 2026-11-27 from skypilot-org/skypilot-catalog catalogs/v7 (Azure from "
                     "catalogs/v6, which has no v7); rows and their selection: "
                     "../shared/data/prices/skypilot-catalog-v7/README.md.",
                     "--write-catalogue", out});
}

TEST(AdviseSkyPilot, ShippedSnapshotIsTheConvertersOutput) {
  if (!std::filesystem::is_directory(test::skypilot_snapshot_dir())) GTEST_SKIP() << "no SkyPilot snapshot";
  test::AdviseTempDir dir("skypilot_write");
  const std::string out = dir.path() + "/skypilot-v7.json";
  const CliResult r = write_snapshot(out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("3343 offers"), std::string::npos) << r.err;
  const std::string shipped = locate_gpu_offer_catalogue("skypilot-v7");
  EXPECT_TRUE(file_text(out) == file_text(shipped))
      << "regenerate: spotsim advise --catalogue ../shared/data/prices/skypilot-catalog-v7 --catalogue-date "
         "2026-11-27 --catalogue-note ... --write-catalogue traces/library/catalogue/skypilot-v7.json "
         "(the command in docs/advise.md#skypilot)";
  EXPECT_LT(file_text(shipped).size(), 1'500'000u);
}

TEST(AdviseSkyPilot, ShippedSnapshotRanksFiveProviders) {
  // One GPU type keeps it quick; every provider of the snapshot offers an A100 of one kind or another.
  const CliResult r =
      run_advise(job_with({"--catalogue", "skypilot-v7", "--gpu", "A100", "--allow-idle-gpus", "--format", "json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::set<std::string> ranked;
  for (const auto& row : j["rows"]) {
    if (!row["rank"].is_null()) ranked.insert(row["cloud"].get<std::string>());
    const std::string why = row["on_demand_only"];
    if (!why.empty()) {
      EXPECT_EQ(row["policy"], "on-demand");
      EXPECT_EQ(row["preemption_basis"], "none");
      EXPECT_EQ(row["mean_preemptions"], 0.0);
    }
    if (row["cloud"] == "lambda" || row["cloud"] == "azure" || row["cloud"] == "runpod") {
      EXPECT_FALSE(why.empty());
    }
  }
  EXPECT_EQ(ranked, (std::set<std::string>{"aws", "azure", "gcp", "lambda", "runpod"}));
}

TEST(AdviseSkyPilot, DirectoryRanksEveryProvider) {
  if (!std::filesystem::is_directory(test::skypilot_snapshot_dir())) GTEST_SKIP() << "no SkyPilot snapshot";
  const CliResult r = run_advise(job_with({"--catalogue", test::skypilot_snapshot_dir(), "--gpu", "H100",
                                           "--allow-idle-gpus", "--policy", "on-demand", "-f", "csv"}));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* cloud : {",aws,", ",azure,", ",gcp,", ",lambda,", ",runpod,"}) {
    EXPECT_NE(r.out.find(cloud), std::string::npos) << cloud;
  }
  EXPECT_NE(r.out.find("on_demand_only,notes"), std::string::npos);
}

// A user's ~/.sky/catalogs/v7 layout: one spot offer on AWS, one on RunPod (no preemption data), one AWS offer
// without a spot price and one without an on-demand price.
class AdviseSkyPilotRules : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string aws_header =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,"
        "AvailabilityZone\r\n";
    dir_.write_text("aws/vms.csv", aws_header +
                                       "p3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Count': 1}]}\","
                                       "3.06,0.9,us-east-1,use1-az1\r\n"
                                       "p3.2xlarge,V100,1.0,8.0,61.0,V100,3.06,,us-east-1,use1-az2\r\n"
                                       "p3.2xlarge,V100,1.0,8.0,61.0,V100,,0.9,us-east-1,use1-az3\r\n");
    dir_.write_text("runpod/vms.csv",
                    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Region,SpotPrice,Price,"
                    "AvailabilityZone\n1x_V100_SECURE,V100,1.0,8.0,40.0,V100,US,0.2,0.4,US-TX-3\n");
  }
  test::AdviseTempDir dir_{"skypilot_rules"};
};

TEST_F(AdviseSkyPilotRules, OnDemandOnlyOffersRunOnDemandAloneAndSaySo) {
  const CliResult r = run_advise(job_with({"--catalogue", dir_.path(), "--format", "json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, std::vector<std::string>> policies;  // offer -> its rows' policies
  for (const auto& row : j["rows"]) {
    const std::string offer = row["cloud"].get<std::string>() + " " + row["zone"].get<std::string>();
    policies[offer].push_back(row["policy"]);
    if (offer == "aws use1-az2") {
      EXPECT_EQ(row["on_demand_only"], "no spot price");
    }
    if (offer == "runpod US-TX-3") {
      EXPECT_EQ(row["on_demand_only"], "no preemption data for runpod");
    }
    if (offer == "aws use1-az1") {
      EXPECT_EQ(row["preemption_basis"], "default");
    }
  }
  EXPECT_EQ(policies["aws use1-az1"].size(), 3u);
  EXPECT_EQ(policies["aws use1-az2"], std::vector<std::string>{"on-demand"});
  EXPECT_EQ(policies["runpod US-TX-3"], std::vector<std::string>{"on-demand"});
  ASSERT_EQ(j["skipped"].size(), 1u);
  EXPECT_EQ(j["skipped"][0]["offer"], "aws use1-az3 p3.2xlarge");
  EXPECT_EQ(j["skipped"][0]["reason"], "not ranked: no on-demand price (spot $0.90/h only)");
}

TEST_F(AdviseSkyPilotRules, TableStatesOnDemandOnly) {
  const CliResult r = run_advise(job_with({"--catalogue", dir_.path()}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("none: on-demand only: no preemption data for runpod"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("none: on-demand only: no spot price"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not ranked: no on-demand price"), std::string::npos) << r.out;
}

TEST_F(AdviseSkyPilotRules, SpotPolicyListSkipsOnDemandOnlyOffers) {
  const CliResult r = run_advise(job_with({"--catalogue", dir_.path(), "--policy", "spot-only", "--format", "json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["zone"], "use1-az1");
  EXPECT_NE(j.dump().find("and --policy has no on-demand"), std::string::npos);
}

TEST_F(AdviseSkyPilotRules, WrittenCatalogueReadsBackTheSame) {
  const std::string out = dir_.path() + "/converted.json";
  const CliResult w = run_advise({"--catalogue", dir_.path(), "--write-catalogue", out});
  ASSERT_EQ(w.code, 0) << w.err;
  const GpuOfferCatalogue c = read_gpu_offer_catalogue(out);
  ASSERT_EQ(c.offers.size(), 4u);
  EXPECT_EQ(c.offers[1].on_demand_only, "no spot price");
  EXPECT_EQ(c.offers[2].unranked, "no on-demand price (spot $0.90/h only)");
  EXPECT_EQ(c.offers[0].preemption, "aws-advisor-band-gt20");  // p3.2xlarge us-east-1's band in gpu_offers.json
  EXPECT_EQ(c.offers[0].date, "not stated");
  const CliResult direct = run_advise(job_with({"--catalogue", dir_.path(), "--format", "csv"}));
  const CliResult converted = run_advise(job_with({"--catalogue", out, "--format", "csv"}));
  EXPECT_EQ(direct.out, converted.out);
}

TEST(AdviseSkyPilot, OptionErrorsExitTwo) {
  test::AdviseTempDir dir("skypilot_options");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {job_with({"--catalogue-date", "2026-11-27"}), "--catalogue-date: only with a SkyPilot catalogue"},
      {{"--write-catalogue", dir.path() + "/x.json"}, "--write-catalogue: only with a SkyPilot catalogue"},
      {job_with({"--catalogue", dir.path()}), "no SkyPilot vms.csv"},
      {job_with({"--catalogue", dir.path() + "/prices.csv"}), "cannot tell which cloud"},
      {job_with({"--catalogue", dir.path() + "/aws_vms.csv"}), "aws_vms.csv"},
      {{"--catalogue", dir.path(), "--catalogue-date", "27/11/2026", "--write-catalogue", "x.json"},
       "--catalogue-date: expected a date YYYY-MM-DD"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult r = run_advise(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace spotsim

// `spotsim advise` with managed rows: they are simulated beside the DIY rows and marked as managed in the table,
// JSON and CSV; --engineering-cost adds the break-even, here computed by hand; bad amounts exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "advise_test_support.hpp"

namespace spotsim {
namespace {

using test::CliResult;
using test::run_advise;

// A DIY offer at $2/h on demand and a Vertex AI on-demand offer of the same machine at $3/h (per second, no
// minimum, start-up billed); 1 h of work (3,600 steps of 1 s on the A100) and the default 300 s start-up:
// D = 2 x 3,900 / 3,600 = $2.1667, M = 3 x 3,900 / 3,600 = $3.25, s = 1 - D/M = 1/3, and with E = $8,000/month
// DIY pays off above S* = E / s = $24,000/month.
struct Fixture {
  test::AdviseTempDir dir{"advise_managed"};
  std::string gpu = dir.write("gpu.json", test::one_offer_catalogue(2.0, 1.0, 1, 1e6));
  std::string managed(double price) const {
    return dir.write("managed.json", {{"format", "spotsim-managed-training"},
                                      {"version", 1},
                                      {"offers",
                                       {{{"service", "vertex-ai"},
                                         {"mode", "on-demand"},
                                         {"region", "test-region"},
                                         {"instance_type", "test-1g"},
                                         {"gpu", "A100-40GB"},
                                         {"gpus_per_instance", 1},
                                         {"price_per_hour", price},
                                         {"billing_increment_s", 1},
                                         {"billing_minimum_s", 0},
                                         {"startup_s", 300},
                                         {"startup_billed", true},
                                         {"diy_instance_type", "test-1g"},
                                         {"date", "2026-11-23"},
                                         {"source", "test"}}}}});
  }
  std::vector<std::string> args(double price, std::vector<std::string> extra) const {
    std::vector<std::string> a = {"--catalogue",
                                  gpu,
                                  "--managed-catalogue",
                                  managed(price),
                                  "--steps",
                                  "3600",
                                  "--step-time",
                                  "1s",
                                  "--measured-gpu",
                                  "A100-40GB",
                                  "--policy",
                                  "on-demand",
                                  "-n",
                                  "3",
                                  "--threads",
                                  "1"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
};

TEST(AdviseManaged, TableShowsManagedRowsAndTheBreakEven) {
  const Fixture f;
  const CliResult r = run_advise(f.args(3.0, {"--engineering-cost", "8000/month"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("vertex-ai on-demand"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIY pays off at $/month"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("24000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("saves 33.3% against the best managed row, vertex-ai on-demand on 1x test-1g"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("DIY pays off above $24000/month of managed spend"), std::string::npos) << r.out;
}

TEST(AdviseManaged, JsonAndCsvMarkManagedRowsWithHandComputedCosts) {
  const Fixture f;
  const CliResult r = run_advise(f.args(3.0, {"--engineering-cost", "8000", "--format", "json"}));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 2u);
  const nlohmann::json& diy = j["rows"][0];
  const nlohmann::json& managed = j["rows"][1];
  EXPECT_TRUE(diy["managed_service"].is_null());
  EXPECT_EQ(managed["managed_service"], "vertex-ai");
  EXPECT_NEAR(diy["mean_cost"].get<double>(), 2.0 * 3900 / 3600, 1e-9);
  EXPECT_NEAR(managed["mean_cost"].get<double>(), 3.0 * 3900 / 3600, 1e-9);
  EXPECT_NEAR(diy["diy_saving_vs_managed"].get<double>(), 1.0 / 3.0, 1e-9);
  EXPECT_NEAR(diy["break_even_monthly_spend"].get<double>(), 24000.0, 1e-6);
  EXPECT_TRUE(managed["break_even_monthly_spend"].is_null());
  EXPECT_EQ(j["engineering_cost_per_month"], 8000.0);
  EXPECT_EQ(j["manifest"]["engineering_cost_per_month"], 8000.0);

  const CliResult csv = run_advise(f.args(3.0, {"--format", "csv"}));
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_NE(csv.out.find("managed_service,diy_saving_vs_managed,break_even_monthly_spend"), std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find("vertex-ai"), std::string::npos) << csv.out;
}

TEST(AdviseManaged, CheaperManagedMeansDiyNeverPaysOff) {
  const Fixture f;
  const CliResult r = run_advise(f.args(1.5, {"--engineering-cost", "8000/month"}));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Recommended: vertex-ai on-demand on 1x test-1g"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIY never pays off for this job"), std::string::npos) << r.out;
}

TEST(AdviseManaged, WithoutManagedOffersOrCostTheOutputHasNoManagedColumns) {
  const Fixture f;
  std::vector<std::string> args = f.args(3.0, {"--format", "json"});
  args[3] = "none";  // --managed-catalogue none
  const CliResult r = run_advise(args);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_FALSE(j["rows"][0].contains("managed_service"));
  EXPECT_FALSE(j.contains("engineering_cost_per_month"));
}

TEST(AdviseManaged, EngineeringCostRefusals) {
  const Fixture f;
  for (const char* bad : {"8000/year", "lots", "-1", "0", "8k/month"}) {
    const CliResult r = run_advise(f.args(3.0, {"--engineering-cost", bad}));
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--engineering-cost"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  }
  const CliResult missing = run_advise(
      {"--managed-catalogue", "no_such_catalogue", "--steps", "1", "--step-time", "1s", "--measured-gpu", "V100"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("--managed-catalogue"), std::string::npos) << missing.err;
  const CliResult sets =
      run_advise({"--region-sets", "--trace", "gcp-h100-13-zones", "--work", "1h", "--engineering-cost", "8000"});
  EXPECT_EQ(sets.code, 2);
  EXPECT_NE(sets.err.find("--engineering-cost"), std::string::npos) << sets.err;
}

}  // namespace
}  // namespace spotsim

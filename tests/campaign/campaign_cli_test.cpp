// The campaign command end to end: JSON output, the managed rows beside DIY and the break-even arithmetic.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/advise/break_even.hpp"
#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim {
namespace {

TEST(CampaignCli, ManagedRowsAndBreakEven) {
  const auto result = test::run_cli(
      campaign_command, "spotsim campaign",
      {"--trace", "gcp-h100-capacity-13-zones", "--trials", "6", "--gpus", "8", "-p", "spot-only,on-demand", "-r", "20",
       "--threads", "1", "--engineering-cost", "8000/month", "--format", "json"});
  ASSERT_EQ(result.code, 0) << result.err;
  const auto doc = nlohmann::json::parse(result.out);
  ASSERT_EQ(doc["jobs"], 6);
  int managed = 0;
  double cheapest_managed = 1e300;
  for (const auto& row : doc["policies"]) {
    EXPECT_EQ(row["completed"]["mean"].get<double>() + row["failed"]["mean"].get<double>() +
                  row["stopped_early"]["mean"].get<double>(),
              6.0);
    EXPECT_NEAR(row["cost_total"]["mean"].get<double>(),
                row["cost_spot"]["mean"].get<double>() + row["cost_on_demand"]["mean"].get<double>() +
                    row["cost_egress"]["mean"].get<double>(),
                1e-6);
    if (!row["managed"].get<bool>()) continue;
    ++managed;
    cheapest_managed = std::min(cheapest_managed, row["cost_total"]["mean"].get<double>());
  }
  EXPECT_EQ(managed, 4);  // Vertex AI and SageMaker H100 offers, on-demand and spot
  const auto& breaks = doc["break_even"]["policies"];
  ASSERT_EQ(breaks.size(), 2u);
  const double diy = doc["policies"][0]["cost_total"]["mean"].get<double>();
  EXPECT_NEAR(breaks[0]["saving_fraction"].get<double>(), 1.0 - diy / cheapest_managed, 1e-12);
  if (diy < cheapest_managed) {
    EXPECT_NEAR(breaks[0]["break_even_monthly_spend"].get<double>(), 8000.0 / (1.0 - diy / cheapest_managed), 1e-6);
  }
}

TEST(CampaignCli, UnboundedCapacityNeverWaitsForOtherJobs) {
  // Six 16-GPU trials: with recorded counts they compete for zones with 16 obtainable; unbounded, they never wait
  // for one another, so the campaign can only be faster.
  const std::vector<std::string> common = {
      "--trace", "gcp-h100-capacity-13-zones", "--trials", "6",        "--gpus", "16", "-p", "spot-only", "-r",
      "30",      "--managed-catalogue",        "none",     "--format", "json"};
  auto recorded = common, unbounded = common;
  unbounded.push_back("--capacity");
  unbounded.push_back("unbounded");
  const auto a = test::run_cli(campaign_command, "spotsim campaign", recorded);
  const auto b = test::run_cli(campaign_command, "spotsim campaign", unbounded);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const double limited = nlohmann::json::parse(a.out)["policies"][0]["makespan_hours"]["mean"].get<double>();
  const double free = nlohmann::json::parse(b.out)["policies"][0]["makespan_hours"]["mean"].get<double>();
  EXPECT_GT(limited, free);
}

}  // namespace
}  // namespace spotsim

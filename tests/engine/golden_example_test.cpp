// A golden example (in the spirit of SimGrid's tesh and ns-3's reference logs): the CLI's summary for a tiny
// fixed-seed scenario on the default trace must stay exactly what it was. Any change to the model, a policy, the
// random streams or the statistics shows up here and must be explained. To accept a deliberate change, rerun
// with SPOTSIM_UPDATE_GOLDEN=1 and commit the new file with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/report_writer.hpp"
#include "app/simulation_request.hpp"
#include "base/duration.hpp"

namespace spotsim {
namespace {

TEST(GoldenExample, AdaptiveOnUsWest1SummaryIsUnchanged) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  request.policy = "adaptive";
  request.checkpoint = "young-daly";
  request.job.work = parse_duration("72h", "work");
  request.job.deadline = parse_duration("90h", "deadline");
  request.replications = 200;
  request.seed = 42;
  const auto summary = nlohmann::json::parse(report_json(run_simulation(request)))["summary"];
  const std::string golden_path =
      std::string(SPOTSIM_REPO_DIR) + "/tests/engine/golden/us_west1_adaptive_seed42_summary.json";
  if (std::getenv("SPOTSIM_UPDATE_GOLDEN")) {
    std::ofstream(golden_path) << summary.dump(1) << "\n";
    GTEST_SKIP() << "rewrote " << golden_path;
  }
  std::ifstream in(golden_path);
  ASSERT_TRUE(in) << golden_path;
  const auto golden = nlohmann::json::parse(in);
  // Same command as: simulate --trace traces/library/us-west1.json --policy adaptive --checkpoint young-daly -n 200
  //                  --seed 42 --work 72h --deadline 90h --format json   (the "summary" object)
  EXPECT_EQ(summary, golden) << "changed metrics: " << nlohmann::json::diff(golden, summary).dump(1);
}

}  // namespace
}  // namespace spotsim

// Every trace shipped in traces/ reads, carries its provenance, and runs through `simulate`'s code path.
#include <gtest/gtest.h>

#include <filesystem>

#include "app/simulation_request.hpp"
#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

std::vector<std::string> shipped_traces() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(testing::repo_path("traces/library"))) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(ShippedTraces, LibraryHoldsTheDocumentedTraces) {
  const auto paths = shipped_traces();
  for (const char* name : {"us-west1", "aws-us-west-2-v100", "aws-us-west-2-k80", "aws-us-west-2-v100-prices",
                           "aws-us-east-1-r5-prices", "gcp-us-central1-c", "gcp-us-east1-b", "gcp-us-west1-a",
                           "gcp-h100-13-zones", "aws-v100-9-zones", "gcp-h100-capacity-13-zones"}) {
    EXPECT_TRUE(std::filesystem::exists(testing::repo_path("traces/library/") + name + ".json")) << name;
  }
  std::uintmax_t total = 0;
  for (const auto& p : paths) total += std::filesystem::file_size(p);
  EXPECT_LT(total, 2u * 1024 * 1024);  // keep the repository small
}

TEST(ShippedTraces, EachHasProvenanceAndRunsInSimulate) {
  for (const auto& path : shipped_traces()) {
    SCOPED_TRACE(path);
    const SpotMarket market = read_trace_file(path);
    EXPECT_FALSE(market.provenance.source.empty());
    EXPECT_FALSE(market.provenance.date.empty());
    EXPECT_FALSE(market.provenance.license.empty());
    SimulationRequest request;
    request.trace = path;
    request.job.work = 24 * kMillisPerHour;
    request.replications = 4;
    request.threads = 1;
    const SimulationReport report = run_simulation(request);
    ASSERT_EQ(report.runs.size(), 4u);
    for (const RunResult& run : report.runs) {
      EXPECT_TRUE(run.completed);
      EXPECT_GT(run.cost_total, 0.0);
    }
  }
}

}  // namespace
}  // namespace spotsim

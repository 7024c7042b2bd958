// The shipped multi-node recordings (traces/library/aws-v100-{4,16}-node.json, aws-p3-{bamboo,parcae}-32-node.json)
// are exactly a fresh import of the shared data with the command in their provenance, and behave as documented.
#include <gtest/gtest.h>

#include "app/simulation_request.hpp"
#include "trace_test_paths.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/importers/trace_importer.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

using testing::repo_path;
using testing::shared_path;

struct Recording {
  const char* library_name;
  std::vector<std::string> inputs;  // relative to the shared preemption data
  const char* format;
  std::optional<Millis> time_unit;
  bool geography;
  const char* zone_name;
};

const std::vector<Recording>& recordings() {
  static const std::vector<Recording> r = {
      {"aws-v100-4-node",
       {"aws-gcp-spot-availability/preemption/4-node/aws-08-03-2023/us-east-1f_v100_1.json",
        "aws-gcp-spot-availability/preemption/4-node/aws-08-03-2023/us-east-2a_v100_1.json",
        "aws-gcp-spot-availability/preemption/4-node/aws-08-03-2023/us-west-2c_v100_1.json"},
       "cant-be-late",
       std::nullopt,
       true,
       ""},
      {"aws-v100-16-node",
       {"aws-gcp-spot-availability/availability/16-node/aws-08-27-2023/us-east-2b_v100_1.json",
        "aws-gcp-spot-availability/availability/16-node/aws-08-27-2023/us-west-2a_v100_1.json",
        "aws-gcp-spot-availability/availability/16-node/aws-08-27-2023/us-west-2c_v100_1.json"},
       "cant-be-late",
       std::nullopt,
       true,
       ""},
      {"aws-p3-bamboo-32-node",
       {"bamboo-node-events/traces/p3-trace.csv"},
       "node-events",
       std::nullopt,
       false,
       "p3-asg"},
      {"aws-p3-parcae-32-node", {"parcae-node-events/aws/traces/p3.csv"}, "instance-counts", 1, false, "p3-asg"},
  };
  return r;
}

TEST(ShippedMultiNodeTraces, EqualAFreshImportOfTheSharedData) {
  SPOTSIM_REQUIRE_SHARED_DATA();
  for (const Recording& rec : recordings()) {
    SCOPED_TRACE(rec.library_name);
    const SpotMarket shipped = read_trace_file(repo_path("traces/library/") + rec.library_name + ".json");
    ImportOptions options;
    options.time_unit = rec.time_unit;
    options.zone_name = rec.zone_name;
    std::vector<ImportedTrace> parts;
    for (const std::string& input : rec.inputs)
      parts.push_back(import_trace_file(shared_path(input), rec.format, options));
    SpotMarket fresh = merge_imported(std::move(parts)).market;
    if (rec.geography) place_zones_by_name(fresh, "aws", "--geography");
    EXPECT_EQ(shipped.span, fresh.span);
    EXPECT_EQ(shipped.tick, fresh.tick);
    if (rec.geography) {
      EXPECT_EQ(shipped.tick, 300 * kMillisPerSecond);  // one clock kept through the merge
    }
    ASSERT_EQ(shipped.zones.size(), fresh.zones.size());
    for (std::size_t z = 0; z < fresh.zones.size(); ++z) {
      const Zone& a = shipped.zones[z];
      const Zone& b = fresh.zones[z];
      EXPECT_EQ(a.name, b.name);
      EXPECT_EQ(a.region, b.region);
      EXPECT_EQ(a.continent, b.continent);
      EXPECT_EQ(a.instance_type, "p3.2xlarge");
      EXPECT_EQ(a.gpus_per_instance, 1);
      EXPECT_EQ(a.on_demand_price_per_hour, 3.06);
      EXPECT_EQ(a.spot.price_per_hour.at(0), 0.887);
      ASSERT_TRUE(a.spot.available && b.spot.available);
      EXPECT_EQ(a.spot.available->times(), b.spot.available->times());
      EXPECT_EQ(a.spot.available->values(), b.spot.available->values());
    }
    EXPECT_NE(shipped.provenance.notes.find("spotsim trace convert"), std::string::npos);
  }
}

// The recorder's own cluster size sees every drop below it; a smaller job in the 32-node pool is now preempted too.
TEST(ShippedMultiNodeTraces, MultiNodeJobsArePreemptedOnEveryRecording) {
  for (const auto& [name, nodes] : std::vector<std::pair<std::string, int>>{{"aws-v100-4-node", 4},
                                                                            {"aws-v100-16-node", 16},
                                                                            {"aws-p3-bamboo-32-node", 8},
                                                                            {"aws-p3-parcae-32-node", 8}}) {
    SCOPED_TRACE(name);
    SimulationRequest request;
    request.trace = repo_path("traces/library/") + name + ".json";
    request.policy = "spot-only";
    request.checkpoint = "continuous";
    request.job.work = 24 * kMillisPerHour;
    request.job.nodes = nodes;
    request.replications = 8;
    request.threads = 1;
    const SimulationReport report = run_simulation(request);
    int preemptions = 0;
    for (const RunResult& run : report.runs) preemptions += run.preemptions;
    EXPECT_GT(preemptions, 0);
  }
}

}  // namespace
}  // namespace spotsim

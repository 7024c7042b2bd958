// A converted availability trace drives the engine: preemptions at the recorded drops, billing at the recorded
// prices.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/simulation_request.hpp"
#include "traces/importers/trace_importer.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {
namespace {

// One-hour ticks: spot obtainable, obtainable, gone, back; prices 1..6 USD/h.
constexpr const char* kRecording = R"({"metadata":{"gap_seconds":3600},"data":[1,1,0,1,1,1],"prices":[1,2,3,4,5,6]})";

SimulationReport run_on_converted(Millis work) {
  ImportOptions options;
  options.zone_name = "z";
  options.on_demand_price_per_hour = 10.0;
  const ImportedTrace imported = import_trace_content(kRecording, "recording.json", "auto", options);
  const auto path =
      std::filesystem::temp_directory_path() / ("spotsim-engine-replay-" + std::to_string(work) + ".json");
  std::ofstream(path) << trace_to_json(imported.market).dump();
  SimulationRequest request;
  request.trace = path.string();
  request.policy = "spot-only";
  request.checkpoint = "none";
  request.job.work = work;
  request.job.startup = 0;
  request.job.restore = 0;
  request.replications = 1;
  request.threads = 1;
  request.trace_start = TraceStart{false, 0};
  SimulationReport report = run_simulation(request);
  std::filesystem::remove(path);
  return report;
}

TEST(EngineReplay, FinishesBeforeTheDropAtTheRecordedPrice) {
  const RunResult run = run_on_converted(kMillisPerHour).runs.front();
  EXPECT_TRUE(run.completed);
  EXPECT_EQ(run.preemptions, 0);
  EXPECT_NEAR(run.cost_spot, 1.0, 1e-9);  // one hour at 1 USD/h
}

TEST(EngineReplay, PreemptedAtTheRecordedDropAndBilledAtRecordedPrices) {
  // 3 h of work without checkpoints: runs [0, 2h), preempted when availability drops at 2 h, waits for spot to
  // return at 3 h, restarts from scratch and finishes at 6 h.
  const RunResult run = run_on_converted(3 * kMillisPerHour).runs.front();
  EXPECT_TRUE(run.completed);
  EXPECT_EQ(run.preemptions, 1);
  EXPECT_NEAR(run.completion_hours, 6.0, 1e-9);
  EXPECT_NEAR(run.lost_work_hours, 2.0, 1e-9);
  // Billing integrates the recorded prices: (1 + 2) for the first instance, (4 + 5 + 6) for the second.
  EXPECT_NEAR(run.cost_spot, 3.0 + 15.0, 1e-9);
  EXPECT_NEAR(run.cost_on_demand, 0.0, 1e-12);
}

}  // namespace
}  // namespace spotsim

// The streaming outputs of `spotsim sweep` (chunks read one at a time, one (trace, job) group analysed at a time,
// summary.json and summary.md spliced from scratch files) against the same files rendered from every run held in
// memory: byte for byte, on specs that exercise each part of the splicing.
#include <gtest/gtest.h>

#include "app/run_metrics.hpp"
#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

// Runs the spec with the CLI (the streaming path), then renders the outputs again from every run in memory.
void expect_streaming_equals_in_memory(const std::string& name, const std::string& spec_text) {
  const fs::path spec = write_file(fresh_dir(name + "-spec") / "spec.json", spec_text);
  const fs::path out = fresh_dir(name);
  const Outcome o = sweep({spec.string(), "--out", out.string(), "--threads", "2", "--quiet"});
  ASSERT_EQ(o.code, 0) << o.err;

  const SweepPlan plan = read_sweep_state(out.string()).plan;
  const std::vector<RunResult> runs = read_all_runs(plan, {out.string()});
  const SweepAnalysis analysis = analyse_sweep(plan, runs);
  std::string csv = runs_csv_header();
  append_runs_csv(plan, 0, runs, csv);
  const std::string markdown = sweep_summary_markdown(plan, analysis);
  EXPECT_TRUE(file_text(out / "runs.csv") == csv) << name << ": runs.csv";
  EXPECT_EQ(file_text(out / "summary.json"), sweep_summary_json(plan, analysis).dump(2) + "\n") << name;
  EXPECT_EQ(file_text(out / "summary.md"), markdown) << name;
  EXPECT_EQ(o.out, markdown) << name << ": the summary on stdout";
  for (const auto& entry : fs::directory_iterator(out)) {  // no temporary or scratch file left behind
    EXPECT_NE(entry.path().filename().string()[0], '.') << entry.path();
  }
}

TEST(SweepStreaming, BaselineFirstWithCheckpointTuningAndReferences) {
  // Chunks of 50 runs over configurations of 40: chunk and group boundaries never line up.
  expect_streaming_equals_in_memory("tuning", small_spec_text());
}

TEST(SweepStreaming, BaselineLastAcrossTracesAndJobs) {
  // The baseline policy comes after the policies compared with it, in every group: its values are read ahead.
  expect_streaming_equals_in_memory("baseline-last", R"({
    "format": "spotsim-experiment", "version": 1, "name": "baseline last", "description": "two traces", "seed": 5,
    "replications": 9, "traces": ["us-west1", "aws-us-west-2-v100"],
    "policies": ["spot-only", "greedy", "on-demand"], "baseline_policy": "on-demand",
    "checkpoints": ["young-daly", "hazard"], "job": {"work_hours": 6},
    "job_grid": {"deadline_hours": [null, 9, 12]}, "chunk_runs": 7
  })");
}

TEST(SweepStreaming, NoBaselineAndTuningWithoutReferences) {
  expect_streaming_equals_in_memory("intervals-only", R"({
    "format": "spotsim-experiment", "version": 1, "name": "intervals only", "seed": 2, "replications": 5,
    "traces": ["us-west1"], "policies": ["spot-only"], "checkpoint_intervals": ["30m", "1h", "2h"],
    "job": {"work_hours": 4}, "chunk_runs": 1000
  })");
}

TEST(SweepStreaming, NeitherBaselineNorTuning) {
  // Both summary.json arrays: one empty ("checkpoint_tuning": []), one not.
  expect_streaming_equals_in_memory("plain", R"({
    "format": "spotsim-experiment", "version": 1, "name": "plain \"quoted\"\nname", "seed": 9, "replications": 3,
    "traces": ["us-west1"], "policies": ["on-demand"], "job": {"work_hours": 2}, "chunk_runs": 1
  })");
}

}  // namespace
}  // namespace spotsim

// Experiment specs: parsing (every error names the file and the field), expansion into configurations and runs,
// seeds (common random numbers), canonical form, shards.
#include "app/sweep/experiment_spec.hpp"

#include <gtest/gtest.h>

#include <set>

#include "app/sweep/sweep_plan.hpp"
#include "app/sweep/sweep_runner.hpp"
#include "base/errors.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using testing::small_spec_text;

nlohmann::json small_spec() { return nlohmann::json::parse(small_spec_text()); }

std::string parse_error(const nlohmann::json& doc) {
  try {
    parse_experiment_spec(doc, "my-spec.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepSpec, ExpandsPoliciesCheckpointIntervalsAndJobGrid) {
  const ExperimentSpec spec = parse_experiment_spec(small_spec(), "my-spec.json");
  EXPECT_EQ(spec.seed, 11u);
  EXPECT_EQ(spec.replications, 40u);
  ASSERT_EQ(spec.checkpoints.size(), 4u);
  EXPECT_EQ(spec.checkpoints[0], "young-daly");
  EXPECT_EQ(spec.checkpoints[1], "fixed:interval=20m");
  EXPECT_EQ(spec.checkpoints[3], "fixed:interval=3h");
  ASSERT_EQ(spec.jobs.size(), 2u);
  EXPECT_EQ(spec.jobs[0].label, "deadline_hours=none");
  EXPECT_EQ(spec.jobs[0].job.deadline, kNever);
  EXPECT_EQ(spec.jobs[1].label, "deadline_hours=16");
  EXPECT_EQ(spec.jobs[1].job.deadline, 16 * kMillisPerHour);
  EXPECT_EQ(spec.jobs[1].job.work, 12 * kMillisPerHour);
}

TEST(SweepSpec, GridIsACartesianProductWithTheLastKeyFastest) {
  auto doc = small_spec();
  doc["job_grid"] = {{"startup_s", {60, 600}}, {"deadline_hours", {14, 20, nullptr}}};
  const ExperimentSpec spec = parse_experiment_spec(doc, "my-spec.json");
  ASSERT_EQ(spec.jobs.size(), 6u);
  EXPECT_EQ(spec.jobs[0].label, "deadline_hours=14,startup_s=60");
  EXPECT_EQ(spec.jobs[1].label, "deadline_hours=14,startup_s=600");
  EXPECT_EQ(spec.jobs[5].label, "deadline_hours=none,startup_s=600");
  EXPECT_EQ(spec.jobs[1].job.startup, 600 * kMillisPerSecond);
}

TEST(SweepSpec, ErrorsNameTheFileAndTheField) {
  struct Case {
    const char* field;
    nlohmann::json value;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"replicatons", 5, "field 'replicatons': unknown field"},
      {"format", "experiment", "field 'format'"},
      {"replications", 0, "field 'replications': expected an integer in [1"},
      {"replications", 2.5, "field 'replications'"},
      {"seed", -1, "field 'seed'"},
      {"traces", nlohmann::json::array(), "field 'traces': expected a non-empty array"},
      {"policies", {"spot-only", "nonsense"}, "field 'policies[1]'"},
      {"policies", {"adaptive:wndow=3h"}, "field 'policies[0]'"},
      {"policies", {"spot-only", "spot-only"}, "field 'policies[1]': expected each entry once"},
      {"checkpoints", {"daly:on_notice=maybe"}, "field 'checkpoints[0]'"},
      {"checkpoint_intervals", {"30"}, "field 'checkpoint_intervals[0]'"},
      {"checkpoint_intervals", {"30m", "0.5h"}, "field 'checkpoint_intervals[1]': expected each interval once"},
      {"baseline_policy", "greedy", "field 'baseline_policy': expected one of the entries of 'policies'"},
      {"job", {{"work_hour", 3}}, "field 'work_hour': unknown field"},
      {"job_grid", {{"deadline_hours", {10, -3}}}, "job_grid.deadline_hours[1]"},
      {"job_grid", {{"deadline_hours", 10}}, "field 'job_grid.deadline_hours': expected a non-empty array"},
      {"trace_start", "soon", "field 'trace_start'"},
      {"tuning_metric", "cost", "field 'tuning_metric'"},
      {"chunk_runs", 0, "field 'chunk_runs'"},
      {"mode", "ticks", "field 'mode': expected \"event\" or \"cant-be-late\""},
      {"regret", "yes", "field 'regret'"},
  };
  for (const Case& c : cases) {
    auto doc = small_spec();
    doc[c.field] = c.value;
    const std::string message = parse_error(doc);
    EXPECT_NE(message.find("my-spec.json"), std::string::npos) << c.field << ": " << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.field << ": " << message;
  }
  auto missing = small_spec();
  missing.erase("policies");
  EXPECT_NE(parse_error(missing).find("field 'policies'"), std::string::npos);
}

TEST(SweepSpec, UnknownTraceNamesTheField) {
  auto doc = small_spec();
  doc["traces"] = {"us-west1", "no-such-trace"};
  const ExperimentSpec spec = parse_experiment_spec(doc, "my-spec.json");
  try {
    load_traces(spec, "my-spec.json");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("my-spec.json: field 'traces[1]'"), std::string::npos) << e.what();
  }
}

TEST(SweepSpec, CanonicalFormParsesBackToItself) {
  const ExperimentSpec spec = parse_experiment_spec(small_spec(), "my-spec.json");
  const ExperimentSpec again = parse_experiment_spec(spec.canonical, "canonical");
  EXPECT_EQ(again.canonical, spec.canonical);
  EXPECT_EQ(again.checkpoints, spec.checkpoints);
  EXPECT_EQ(spec.canonical["checkpoint_intervals"], nlohmann::json({"20m", "1h", "3h"}));
  auto tick_mode = small_spec();
  tick_mode["mode"] = "cant-be-late";
  tick_mode["regret"] = true;
  const ExperimentSpec cbl = parse_experiment_spec(tick_mode, "my-spec.json");
  EXPECT_TRUE(cbl.cant_be_late_mode && cbl.regret);
  const ExperimentSpec cbl_again = parse_experiment_spec(cbl.canonical, "canonical");
  EXPECT_TRUE(cbl_again.cant_be_late_mode && cbl_again.regret);
  // Specs without intervals, or with nothing but intervals, round-trip too.
  for (const char* drop : {"checkpoint_intervals", "checkpoints"}) {
    auto doc = small_spec();
    doc.erase(drop);
    const ExperimentSpec one = parse_experiment_spec(doc, "my-spec.json");
    EXPECT_EQ(parse_experiment_spec(one.canonical, "canonical").checkpoints, one.checkpoints) << drop;
  }
}

TEST(SweepSpec, RunsAreNumberedConfigurationMajorWithOneSeedPerTrace) {
  auto doc = small_spec();
  doc["traces"] = {"us-west1", "aws-us-west-2-v100"};
  const ExperimentSpec spec = parse_experiment_spec(doc, "my-spec.json");
  const SweepPlan plan = plan_sweep(spec, load_traces(spec, "my-spec.json").info);
  ASSERT_EQ(plan.configurations.size(), 2u * 2u * 3u * 4u);
  EXPECT_EQ(plan.run_count(), 48u * 40u);
  EXPECT_EQ(plan.chunk_count(), (48u * 40u + 49u) / 50u);
  // Run k = replication k mod R of configuration k div R; the checkpoint policy varies fastest, traces slowest.
  const Configuration& c = plan.configuration_of_run(5 * 40 + 7);
  EXPECT_EQ(c.index, 5u);
  EXPECT_EQ(c.checkpoint, 1u);
  EXPECT_EQ(c.policy, 1u);
  EXPECT_EQ(plan.replication_of_run(5 * 40 + 7), 7u);
  EXPECT_EQ(plan.configuration_of_run(24 * 40).trace, 1u);
  // Common random numbers: every configuration of a trace has that trace's seed.
  std::set<std::uint64_t> seeds_of_first, seeds_of_second;
  for (const Configuration& k : plan.configurations)
    (k.trace == 0 ? seeds_of_first : seeds_of_second).insert(plan.seed_of(k));
  EXPECT_EQ(seeds_of_first.size(), 1u);
  EXPECT_EQ(seeds_of_second.size(), 1u);
  EXPECT_NE(*seeds_of_first.begin(), *seeds_of_second.begin());
}

TEST(SweepSpec, TraceSeedsAreKeyedByNameAndPinned) {
  // Golden values: a change here changes every published sweep result.
  EXPECT_EQ(trace_seed(1, "us-west1"), trace_seed(1, "us-west1"));
  EXPECT_NE(trace_seed(1, "us-west1"), trace_seed(2, "us-west1"));
  EXPECT_NE(trace_seed(1, "us-west1"), trace_seed(1, "us-west2"));
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);  // the FNV-1a reference value
  EXPECT_EQ(hex64(trace_seed(1, "us-west1")), "fa4e7cebfaafeb0f");
}

TEST(SweepSpec, SameReplicationSeesTheSameTraceWindowUnderEveryPolicy) {
  auto doc = small_spec();
  doc["traces"] = {"aws-us-west-2-v100"};
  doc["replications"] = 6;
  const ExperimentSpec spec = parse_experiment_spec(doc, "my-spec.json");
  LoadedTraces traces = load_traces(spec, "my-spec.json");
  const SweepPlan plan = plan_sweep(spec, traces.info);
  const std::vector<RunResult> runs = run_all_runs(plan, traces.markets, 2);
  std::set<double> starts;
  for (std::uint64_t k = 0; k < plan.run_count(); ++k) {
    const std::uint64_t r = plan.replication_of_run(k);
    EXPECT_EQ(runs[k].trace_start_hours, runs[r].trace_start_hours) << "run " << k;
    starts.insert(runs[k].trace_start_hours);
  }
  EXPECT_EQ(starts.size(), 6u);  // and different replications start at different points
}

TEST(SweepSpec, ShardsAreContiguousBlocksCoveringEveryChunkOnce) {
  const ExperimentSpec spec = parse_experiment_spec(small_spec(), "my-spec.json");
  const SweepPlan plan = plan_sweep(spec, load_traces(spec, "my-spec.json").info);
  for (std::uint64_t n : {1u, 2u, 3u, 7u, 40u}) {
    std::uint64_t next = 0;
    for (std::uint64_t i = 1; i <= n; ++i) {
      const ChunkRange r = shard_chunks(plan, ShardSelection{i, n});
      EXPECT_EQ(r.first, next);
      next = r.end;
    }
    EXPECT_EQ(next, plan.chunk_count());
  }
  EXPECT_EQ(parse_shard("2/4").index, 2u);
  EXPECT_THROW(parse_shard("0/4"), InputError);
  EXPECT_THROW(parse_shard("5/4"), InputError);
  EXPECT_THROW(parse_shard("2-4"), InputError);
}

}  // namespace
}  // namespace spotsim

// `simulate --timeline`: re-running chosen replications with the observer attached reproduces the Monte Carlo run
// exactly, and the log it writes accounts for the run (held time, preemptions, checkpoints, migrations).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/report/report_input.hpp"
#include "app/report/timeline_reader.hpp"
#include "app/run_metrics.hpp"
#include "app/simulation_request.hpp"
#include "app/streaming_report.hpp"
#include "app/timeline_writer.hpp"
#include "base/errors.hpp"
#include "engine/job_simulation.hpp"
#include "engine/tick_simulation.hpp"
#include "tests/same_run.hpp"

namespace spotsim {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("spotsim_timeline_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

using test::expect_same_run;

SimulationRequest request_on(const std::string& trace, const std::string& policy) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/" + trace;
  request.policy = policy;
  request.job.work = 24 * kMillisPerHour;
  request.job.deadline = 36 * kMillisPerHour;
  request.replications = 12;
  request.threads = 2;
  request.seed = 42;
  return request;
}

// Sums over a run's log that the RunResult also holds.
struct LogTotals {
  double held_hours = 0.0;
  int preemptions = 0, checkpoints = 0, migrations = 0;
};

LogTotals totals_of(const TimelineRun& run) {
  LogTotals t;
  for (const HeldSpan& h : run.held) t.held_hours += h.to - h.from;
  for (const TimelineMark& m : run.marks) {
    t.preemptions += m.event == "preemption";
    t.checkpoints += m.event == "checkpoint_done";
    t.migrations += m.event == "transfer_done";
  }
  return t;
}

// Re-runs `chosen` with a timeline: each re-run equals the Monte Carlo run's, and its log accounts for it (end, cost,
// preemptions, checkpoints, migrations, held time). An engine may bill up to `billed_after_end` hours after the run
// ends (the tick engine bills the finishing tick in full), which the log's held time does not cover. Then
// `more(log run, Monte Carlo run)` checks what is the engine's own.
template <class More>
void check_rerun(const SimulationRequest& request, const std::vector<std::uint64_t>& chosen, int* migrations_seen,
                 double billed_after_end, More more) {
  const SimulationReport report = run_simulation(request);
  const std::string path = temp_path("rerun.jsonl");
  const std::vector<RunResult> rerun = write_timeline(request, chosen, path);
  ASSERT_EQ(rerun.size(), chosen.size());
  const TimelineFile log = read_timeline_file(path);
  std::filesystem::remove(path);
  ASSERT_EQ(log.runs.size(), chosen.size());
  EXPECT_EQ(log.header["seed"], request.seed);
  EXPECT_EQ(log.zone_names.size(), static_cast<std::size_t>(log.header["trace"]["zones"].get<int>()));
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const RunResult& main_run = report.runs[chosen[k]];
    expect_same_run(rerun[k], main_run);
    const TimelineRun& run = log.runs[k];
    EXPECT_EQ(run.replication, chosen[k]);
    EXPECT_TRUE(run.finished);
    EXPECT_EQ(run.completed, main_run.completed);
    EXPECT_NEAR(run.end, main_run.completion_hours, 1e-9);
    EXPECT_NEAR(run.cost, main_run.cost_total, 1e-9 * std::max(1.0, main_run.cost_total));
    const LogTotals t = totals_of(run);
    const double billed = main_run.spot_hours + main_run.on_demand_hours;
    EXPECT_LE(t.held_hours, billed + 1e-9);
    EXPECT_GE(t.held_hours, billed - billed_after_end - 1e-9);
    EXPECT_EQ(t.preemptions, main_run.preemptions);
    EXPECT_EQ(t.checkpoints, main_run.checkpoints);
    EXPECT_EQ(t.migrations, main_run.migrations);
    *migrations_seen += t.migrations;
    more(run, main_run);
  }
}

void check_rerun(const SimulationRequest& request, const std::vector<std::uint64_t>& chosen, int* migrations_seen) {
  check_rerun(request, chosen, migrations_seen, 0.0, [](const TimelineRun&, const RunResult&) {});
}

TEST(Timeline, ReRunEqualsTheMonteCarloRunAndItsLogAddsUp) {
  int migrations = 0;
  check_rerun(request_on("us-west1.json", "adaptive"), {0, 3, 7, 11}, &migrations);
  check_rerun(request_on("us-west1.json", "spot-only"), {1, 2}, &migrations);
}

TEST(Timeline, MultiRegionRunsShowZoneNamesAndMigrations) {
  SimulationRequest request = request_on("gcp-h100-13-zones.json", "cost-aware");
  request.job.checkpoint_size_gb = 50;
  int migrations = 0;
  check_rerun(request, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, &migrations);
  EXPECT_GT(migrations, 0) << "expected the multi-region policy to move the state at least once in 12 runs";
}

TEST(Timeline, NoObserverAndAnObserverGiveTheSameRun) {
  // An observer that counts: attached or not, the run is the same, and it hears every phase change.
  struct Counter final : EventObserver {
    int events = 0, finished = 0;
    void on_event(const TimelineEvent& e) override {
      ++events;
      finished += e.kind == TimelineEventKind::kFinished;
    }
  } counter;
  const SimulationRequest request = request_on("us-west1.json", "adaptive");
  const PreparedSimulation prepared = prepare_simulation(request);
  auto selection = prepared.factories.selection();
  auto checkpoint = prepared.factories.checkpoint();
  JobSimulation simulation(*prepared.scenario, *selection, *checkpoint);
  const RunResult plain = simulation.run(request.seed, 5);
  simulation.set_observer(&counter);
  const RunResult observed = simulation.run(request.seed, 5);
  simulation.set_observer(nullptr);
  const RunResult again = simulation.run(request.seed, 5);
  expect_same_run(plain, observed);
  expect_same_run(plain, again);
  EXPECT_EQ(counter.finished, 1);
  EXPECT_GT(counter.events, 2 * plain.checkpoints);
}

TEST(Timeline, ReplicationListsAreChecked) {
  EXPECT_EQ(parse_timeline_replications("0,3,7", 10), (std::vector<std::uint64_t>{0, 3, 7}));
  EXPECT_EQ(default_timeline_replications(2), (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(default_timeline_replications(1000), (std::vector<std::uint64_t>{0, 1, 2}));
  EXPECT_THROW(parse_timeline_replications("10", 10), InputError);
  EXPECT_THROW(parse_timeline_replications("1,1", 10), InputError);
  EXPECT_THROW(parse_timeline_replications("1,,2", 10), InputError);
  EXPECT_THROW(parse_timeline_replications("-1", 10), InputError);
  std::string many = "0";
  for (int r = 1; r <= 100; ++r) {
    many += ',';
    many += std::to_string(r);
  }
  EXPECT_THROW(parse_timeline_replications(many, 1000), InputError);
}

// The Can't Be Late mode (the tick engine) on the paper's two-zone recording.
SimulationRequest tick_request(const std::string& trace, const std::string& policy) {
  SimulationRequest request = request_on(trace, policy);
  request.cant_be_late_mode = true;
  request.checkpoint = "continuous";
  request.job.work = 20 * kMillisPerHour;
  request.job.deadline = 26 * kMillisPerHour;
  request.job.startup = 24 * kMillisPerMinute;  // d longer than a 10-minute tick: start-ups span ticks
  return request;
}

// What the log says was held at time t (hours): 's' spot, 'D' on-demand, '.' nothing.
char held_at(const TimelineRun& run, double t) {
  for (const HeldSpan& h : run.held) {
    if (h.from <= t && t < h.to) return h.spot ? 's' : 'D';
  }
  return '.';
}

double hours_in(const TimelineRun& run, const std::string& phase) {
  double sum = 0.0;
  for (const PhaseSpan& p : run.phases) sum += p.phase == phase ? p.to - p.from : 0.0;
  return sum;
}

// A tick run's log is the run: check_rerun's totals (the finishing tick billed in full), its time starting, moving
// and waiting, and what it held in every tick as the engine itself records it.
void check_tick_rerun(const SimulationRequest& request, const std::vector<std::uint64_t>& chosen,
                      int* migrations_seen) {
  const PreparedSimulation prepared = prepare_simulation(request);
  auto selection = prepared.factories.selection();
  TickSimulation ticks(*prepared.scenario, *selection, prepared.scenario->cant_be_late_tick());
  ticks.record_ticks(true);
  const double g = to_hours(ticks.tick());
  check_rerun(request, chosen, migrations_seen, g, [&](const TimelineRun& run, const RunResult& main_run) {
    EXPECT_NEAR(hours_in(run, "starting"), main_run.startup_hours, 1e-9);
    EXPECT_NEAR(hours_in(run, "migrating"), main_run.migration_hours, 1e-9);
    EXPECT_NEAR(hours_in(run, "idle"), main_run.wait_hours, 1e-9);
    expect_same_run(ticks.run(request.seed, run.replication), main_run);
    const std::string& held = ticks.held_per_tick();
    ASSERT_FALSE(held.empty());
    for (std::size_t i = 0; i < held.size(); ++i) {
      EXPECT_EQ(held_at(run, (static_cast<double>(i) + 1e-3) * g), held[i])
          << "tick " << i << " of replication " << run.replication;
    }
  });
}

TEST(Timeline, TickRunsReportTheirEventsTickForTick) {
  int migrations = 0;
  for (const char* policy : {"greedy", "uniform-progress", "adaptive", "optimal-offline"}) {
    SCOPED_TRACE(policy);
    check_tick_rerun(tick_request("aws-us-west-2-v100.json", policy), {0, 4, 9}, &migrations);
  }
  // Several regions with a 50 GB state: launches elsewhere move it (start-up, then transfer, then compute).
  SimulationRequest moving = tick_request("gcp-h100-13-zones.json", "cost-aware");
  moving.job.checkpoint_size_gb = 50;
  check_tick_rerun(moving, {0, 1, 2, 3, 4, 5}, &migrations);
  EXPECT_GT(migrations, 0) << "expected cost-aware to move the state at least once in 6 runs";
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

// `simulate --format json` carries its first three runs' timelines, and the report draws them from the JSON alone:
// the same log --timeline writes for those replications.
TEST(Timeline, SimulateJsonCarriesTheFirstRunsTimelinesForTheReport) {
  const SimulationRequest request = request_on("us-west1.json", "adaptive");
  const std::string json_path = temp_path("embedded.json"), log_path = temp_path("embedded.jsonl");
  std::ostringstream unused;
  write_simulation(request, "json", json_path, unused);
  write_timeline(request, {0, 1, 2}, log_path);
  const ReportInput input = read_report_input(json_path);
  const TimelineFile embedded = read_timeline_text(input.embedded_timeline, json_path);
  const TimelineFile file = read_timeline_file(log_path);
  std::filesystem::remove(json_path);
  std::filesystem::remove(log_path);
  ASSERT_EQ(embedded.runs.size(), 3u);
  ASSERT_EQ(file.runs.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(embedded.runs[k].replication, k);
    EXPECT_TRUE(embedded.runs[k].finished);
    EXPECT_EQ(embedded.runs[k].end, file.runs[k].end);
    EXPECT_EQ(embedded.runs[k].cost, file.runs[k].cost);
    EXPECT_EQ(embedded.runs[k].held.size(), file.runs[k].held.size());
    EXPECT_EQ(embedded.runs[k].marks.size(), file.runs[k].marks.size());
  }
}

// The elastic engine's JSON carries its timeline too, the same text --timeline writes.
TEST(Timeline, SimulateJsonOfTheElasticEngineCarriesItsTimeline) {
  SimulationRequest request = request_on("aws-p3-bamboo-32-node.json", "spot-nodes");
  request.job.nodes = 8;
  request.job.elastic.min_nodes = 4;
  request.replications = 4;
  const std::string json_path = temp_path("elastic.json");
  std::ostringstream unused;
  write_simulation(request, "json", json_path, unused);
  const ReportInput input = read_report_input(json_path);
  std::filesystem::remove(json_path);
  const std::string direct = timeline_text(request, prepare_simulation(request), {0, 1, 2});
  EXPECT_FALSE(input.embedded_timeline.empty());
  const std::vector<nlohmann::json> embedded = json_lines(input.embedded_timeline), written = json_lines(direct);
  ASSERT_EQ(embedded.size(), written.size());
  EXPECT_EQ(embedded.front()["engine"], "elastic");
  for (std::size_t i = 1; i < embedded.size(); ++i) EXPECT_EQ(embedded[i], written[i]) << "line " << i + 1;
}

// A Can't Be Late (tick) run's JSON carries its timeline too, the same text --timeline writes.
TEST(Timeline, SimulateJsonOfTheTickEngineCarriesItsTimeline) {
  const SimulationRequest request = tick_request("aws-us-west-2-v100.json", "adaptive");
  const std::string json_path = temp_path("ticks.json");
  std::ostringstream unused;
  write_simulation(request, "json", json_path, unused);
  const ReportInput input = read_report_input(json_path);
  std::filesystem::remove(json_path);
  const std::string direct = timeline_text(request, prepare_simulation(request), {0, 1, 2});
  ASSERT_FALSE(input.embedded_timeline.empty());
  EXPECT_EQ(read_timeline_text(input.embedded_timeline, json_path).runs.size(), 3u);
  const std::vector<nlohmann::json> embedded = json_lines(input.embedded_timeline), written = json_lines(direct);
  ASSERT_EQ(embedded.size(), written.size());
  for (std::size_t i = 1; i < embedded.size(); ++i) EXPECT_EQ(embedded[i], written[i]) << "line " << i + 1;
}

}  // namespace
}  // namespace spotsim

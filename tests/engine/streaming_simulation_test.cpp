// simulate in bounded memory: the streamed outputs and summaries are the bytes of the in-memory ones (the JSON as
// one nlohmann document, summarize() over every run), for any thread count and block size; outputs are replaced
// atomically; and what cannot fit is refused before the run with a message saying what to do instead.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/report_writer.hpp"
#include "app/run_metrics.hpp"
#include "app/simulation_request.hpp"
#include "app/simulation_resources.hpp"
#include "app/streaming_report.hpp"
#include "base/atomic_output_stream.hpp"
#include "base/errors.hpp"
#include "engine/replication_stream.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

namespace fs = std::filesystem;

SimulationRequest small_request(std::uint64_t n, int threads) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  request.replications = n;
  request.threads = threads;
  request.seed = 3;
  return request;
}

QuantileLimits spilling_limits() {
  QuantileLimits limits;
  limits.distinct_values = 4;
  limits.memory_values = 300;
  limits.spill_block_values = 64;
  limits.select_values = 16;
  return limits;
}

// The JSON document as report_json() built it before streaming: one nlohmann object, dumped whole.
std::string json_as_one_document(const SimulationReport& report) {
  nlohmann::json doc;
  doc["manifest"] = report.manifest;
  doc["summary"] = report_summary_json(report);
  nlohmann::json runs = nlohmann::json::array();
  for (const RunResult& r : report.runs) {
    nlohmann::json row = {{"replication", r.replication}};
    for (const auto& metric : run_metrics()) {
      const double v = metric.value(r);
      if (!std::isnan(v)) row[metric.name] = v;
    }
    row["spot_starts"] = r.spot_starts;
    row["on_demand_starts"] = r.on_demand_starts;
    row["trace_start_hours"] = r.trace_start_hours;
    row["events"] = r.events;
    row["fingerprint"] = r.fingerprint;
    runs.push_back(row);
  }
  doc["runs"] = runs;
  return doc.dump(2) + "\n";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> temp_files_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".tmp") != std::string::npos) out.push_back(entry.path().string());
  }
  return out;
}

struct TempDir {
  TempDir() : path(fs::temp_directory_path() / ("spotsim-stream-test-" + std::to_string(::getpid()))) {
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

TEST(StreamingSimulation, BlocksArriveInReplicationOrderWithTheRunsOfOneCall) {
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{5.0});
  const Scenario scenario(market, testing::job(20.0, kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute));
  const auto policies = testing::policies("adaptive", "young-daly");
  const auto whole = run_replications(scenario, policies, {5, 0, 1000, 1});
  std::vector<RunResult> streamed;
  stream_replications(
      scenario, policies, {5, 0, 1000, 3},
      [&](std::span<const RunResult> block) { streamed.insert(streamed.end(), block.begin(), block.end()); }, 37);
  ASSERT_EQ(streamed.size(), whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    ASSERT_EQ(streamed[i].replication, i);
    ASSERT_EQ(streamed[i].fingerprint, whole[i].fingerprint);
    ASSERT_EQ(streamed[i].cost_total, whole[i].cost_total);
  }
}

TEST(StreamingSimulation, SpilledSummariesAreTheBitsOfSummarizeOverEveryRun) {
  const SimulationRequest request = small_request(2000, 2);
  const SimulationReport in_memory = run_simulation(request);
  const SimulationReport spilled = run_simulation(small_request(2000, 3), nullptr, spilling_limits());
  EXPECT_TRUE(spilled.runs.empty());
  const auto metrics = run_metrics();
  ASSERT_EQ(spilled.summaries.size(), metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> values;
    for (const RunResult& r : in_memory.runs) values.push_back(metrics[m].value(r));
    const Summary expected = summarize(values);
    const Summary& got = spilled.summaries[m];
    SCOPED_TRACE(metrics[m].name);
    EXPECT_EQ(expected.n, got.n);
    if (expected.n == 0) continue;
    for (const auto& [e, g] : {std::pair{expected.mean, got.mean},
                               {expected.sd, got.sd},
                               {expected.min, got.min},
                               {expected.max, got.max},
                               {expected.p50, got.p50},
                               {expected.p95, got.p95},
                               {expected.p99, got.p99},
                               {expected.ci_low, got.ci_low},
                               {expected.ci_high, got.ci_high}}) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(e), std::bit_cast<std::uint64_t>(g)) << e << " vs " << g;
    }
  }
  EXPECT_EQ(report_table(in_memory), report_table(spilled));
}

TEST(StreamingSimulation, StreamedJsonAndCsvAreTheBytesOfTheWholeDocument) {
  const SimulationReport report = run_simulation(small_request(300, 2));
  EXPECT_EQ(report_json(report), json_as_one_document(report));
  std::ostringstream csv;
  CsvRunWriter writer(csv, "test");
  writer.begin(report.manifest);
  for (std::size_t i = 0; i < report.runs.size(); i += 7) {
    writer.add(std::span<const RunResult>(report.runs).subspan(i, std::min<std::size_t>(7, report.runs.size() - i)));
  }
  const std::string text = csv.str();
  EXPECT_EQ(text, report_csv(report));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 301);
}

TEST(StreamingSimulation, WriteSimulationStreamsToTheFileAtomically) {
  TempDir dir;
  const SimulationRequest request = small_request(400, 3);
  SimulationRequest with_timeline = request;  // the JSON file carries the first runs' timelines
  with_timeline.with_timeline = true;
  const SimulationReport report = run_simulation(with_timeline);
  EXPECT_FALSE(report.timeline.empty());
  const fs::path csv = dir.path / "runs.csv";
  const fs::path json = dir.path / "report.json";
  std::ostringstream unused;
  write_simulation(request, "csv", csv.string(), unused);
  write_simulation(request, "json", json.string(), unused);
  EXPECT_EQ(read_file(csv), report_csv(report));
  EXPECT_EQ(read_file(json), report_json(report));
  std::ostringstream to_stdout;
  write_simulation(request, "csv", "", to_stdout);
  EXPECT_EQ(to_stdout.str(), report_csv(report));
  EXPECT_TRUE(unused.str().empty());
  EXPECT_TRUE(temp_files_in(dir.path).empty());

  // A run that fails leaves the earlier file as it was, and no temporary file.
  SimulationRequest bad = request;
  bad.checkpoint = "young-daly";
  bad.cant_be_late_mode = true;  // needs --checkpoint continuous: fails on the first block
  EXPECT_THROW(write_simulation(bad, "csv", csv.string(), unused), InputError);
  EXPECT_EQ(read_file(csv), report_csv(report));
  EXPECT_TRUE(temp_files_in(dir.path).empty());
}

TEST(StreamingSimulation, AtomicOutputStreamReplacesOnlyOnCommit) {
  TempDir dir;
  const fs::path target = dir.path / "out.txt";
  std::ofstream(target) << "old";
  {
    AtomicOutputStream out(target.string());
    out.stream() << "new content";
    EXPECT_EQ(read_file(target), "old");
    EXPECT_EQ(temp_files_in(dir.path).size(), 1u);
  }  // no commit: abandoned
  EXPECT_EQ(read_file(target), "old");
  EXPECT_TRUE(temp_files_in(dir.path).empty());
  {
    AtomicOutputStream out(target.string());
    out.stream() << "new content";
    out.commit();
  }
  EXPECT_EQ(read_file(target), "new content");
  EXPECT_TRUE(temp_files_in(dir.path).empty());
  try {
    AtomicOutputStream missing((dir.path / "no-such-dir" / "x.csv").string());
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-dir"), std::string::npos) << e.what();
  }
}

TEST(StreamingSimulation, AFullDiskIsAnErrorNamingTheFile) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  std::ofstream full("/dev/full");  // every write fails with ENOSPC
  CsvRunWriter writer(full, "/dev/full");
  const SimulationReport report = run_simulation(small_request(50, 1));
  writer.begin(report.manifest);
  try {
    for (int i = 0; i < 2000; ++i) writer.add(report.runs);  // well past any stream buffer
    full.flush();
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full: write failed"), std::string::npos) << e.what();
  }
}

TEST(StreamingSimulation, RefusalsSayWhatToDoInstead) {
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string memory = message([] { check_runs_fit_in_memory(1'000'000'000, std::uint64_t{16} << 30); });
  EXPECT_NE(memory.find("--replications 1000000000"), std::string::npos) << memory;
  EXPECT_NE(memory.find("--output"), std::string::npos) << memory;
  EXPECT_EQ(message([] { check_runs_fit_in_memory(100'000, std::uint64_t{16} << 30); }), "(no error)");

  QuantileLimits limits;
  limits.spill_directory = "/some/dir";
  const std::string spill = message([&] { check_spill_fits(1'000'000'000, 17, limits, std::uint64_t{50} << 30); });
  EXPECT_NE(spill.find("/some/dir"), std::string::npos) << spill;
  EXPECT_NE(spill.find("136.0 GB"), std::string::npos) << spill;
  EXPECT_NE(spill.find("TMPDIR"), std::string::npos) << spill;
  EXPECT_EQ(message([&] { check_spill_fits(limits.memory_values, 17, limits, 0); }), "(no error)");
  const std::string unwritable = message([&] { check_spill_fits(1'000'000, 17, limits, UINT64_MAX); });
  EXPECT_NE(unwritable.find("/some/dir is not a writable directory"), std::string::npos) << unwritable;
  EXPECT_NE(unwritable.find("TMPDIR"), std::string::npos) << unwritable;

  const std::string output =
      message([] { check_output_fits("big.json", "json", 1'000'000'000, 500, std::uint64_t{1} << 30); });
  EXPECT_NE(output.find("big.json"), std::string::npos) << output;
  EXPECT_NE(output.find("--format csv"), std::string::npos) << output;
  EXPECT_EQ(message([] { check_output_fits("t", "table", 1'000'000'000, 500, 0); }), "(no error)");
}

}  // namespace
}  // namespace spotsim

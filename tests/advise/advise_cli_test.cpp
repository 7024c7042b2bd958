// `spotsim advise` on the command line: help lists every option, user errors exit 2 naming the problem, the
// JSON/CSV outputs carry every row, and a job from `spotsim steptime --job-out` is accepted as is.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "advise_test_support.hpp"
#include "cli/commands.hpp"

namespace spotsim {
namespace {

using test::CliResult;
using test::run_advise;

const std::vector<std::string> kMeasuredJob = {"--steps", "20000", "--step-time", "95ms",      "--measured-gpu",
                                               "V100",    "-n",    "10",          "--threads", "1"};

std::vector<std::string> with(std::vector<std::string> extra) {
  std::vector<std::string> args = kMeasuredJob;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(AdviseCli, HelpDocumentsEveryOption) {
  const CliResult r = run_advise({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* option :
       {"--job", "--steps", "--step-time", "--measured-gpu", "--gpus", "--params", "--storage-gbps", "--deadline",
        "--catalogue", "--cloud", "--gpu", "--region", "--max-hours", "--budget", "--policy", "--replications",
        "--format", "--output", "--allow-idle-gpus"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

TEST(AdviseCli, UserErrorsExitTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "expected a job"},
      {{"--steps", "10", "--step-time", "1s"}, "measured_gpu"},
      {{"--steps", "10", "--step-time", "1s", "--measured-gpu", "K80"}, "unknown GPU 'K80'"},
      {{"--steps", "10", "--step-time", "95", "--measured-gpu", "V100"}, "--step-time"},
      {with({"--params", "lots"}), "--params"},
      {with({"--cloud", "azure"}), "no offer"},
      {with({"--policy", "bogus"}), "bogus"},
      {with({"--format", "xml"}), "--format"},
      {with({"--catalogue", "missing"}), "--catalogue 'missing'"},
      {with({"--storage-gbps", "2"}), "checkpoint size"},
      {with({"--budget", "-3"}), "--budget"},
      {{"--job", "/nonexistent/job.json"}, "/nonexistent/job.json"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult r = run_advise(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_NE(r.err.find("spotsim advise: error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(AdviseCli, TableMarksParetoAndRecommends) {
  const CliResult r = run_advise(with({"--gpu", "A100-40GB,H100", "--deadline", "2h", "--allow-idle-gpus"}));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text : {"E[cost] $", "p95 time h", "P(deadline)", "Recommended: ", "rank = by expected cost"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
  EXPECT_NE(r.out.find(" * "), std::string::npos);
  EXPECT_EQ(r.out.find("L4"), std::string::npos);  // filtered out
}

TEST(AdviseCli, JsonAndCsvCarryEveryRow) {
  test::AdviseTempDir dir("cli");
  const std::string json_path = dir.write("placeholder.json", nlohmann::json::object());
  ASSERT_EQ(run_advise(with({"--cloud", "gcp", "--region", "us-central1", "--output", json_path})).code, 0);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(json_path));
  EXPECT_EQ(j["manifest"]["command"], "advise");
  EXPECT_EQ(j["manifest"]["seed"], 1);
  EXPECT_FALSE(j["recommendation"].get<std::string>().empty());
  ASSERT_FALSE(j["rows"].empty());
  EXPECT_EQ(j["rows"][0]["rank"], 1);
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["cloud"], "gcp");
    EXPECT_EQ(row["region"], "us-central1");
  }
  const CliResult csv = run_advise(with({"--cloud", "gcp", "--region", "us-central1", "--format", "csv"}));
  ASSERT_EQ(csv.code, 0);
  std::istringstream lines(csv.out);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("rank,pareto,excluded_because,cloud,", 0), 0u);
  std::size_t rows = 0;
  for (std::string line; std::getline(lines, line);) ++rows;
  EXPECT_EQ(rows, j["rows"].size());
}

TEST(AdviseCli, AcceptsASteptimeJobFile) {
  test::AdviseTempDir dir("steptime_job");
  const nlohmann::json job = {{"checkpoint_size_gb", 0.3584},
                              {"checkpoint_write_s", 0.3584},
                              {"restore_s", 0.3584},
                              {"name", "resnet"},
                              {"steps", 20000.0},
                              {"step_time_s_by_gpu", {{"V100", 0.0954}, {"A100-80GB", 0.0486}, {"H100", 0.0233}}}};
  const std::string path = dir.write("job.json", job);
  const CliResult r = run_advise({"--job", path, "-n", "10", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const auto& row : j["rows"]) {
    EXPECT_EQ(row["step_time_origin"], "job file");
    EXPECT_EQ(row["step_time_s"], job["step_time_s_by_gpu"][row["gpu"].get<std::string>()]);
  }
  EXPECT_FALSE(j["skipped"].empty());  // GPUs the job has no step time for, with the reason
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

// The platform lead's case (issue 34): 128 GPUs on 1-GPU instances restarting together cannot finish on spot; the
// pilot lists that row as skipped, saying why, instead of simulating every run to the give-up time, and leaves the
// rows that finish as they were (the JSON's skipped list names the policy).
TEST(AdviseCli, AnOfferThatCannotFinishIsSkippedAfterItsPilot) {
  const CliResult r = run_advise({"--steps",
                                  "450000",
                                  "--step-time",
                                  "95.38ms",
                                  "--measured-gpu",
                                  "V100",
                                  "--gpus",
                                  "128",
                                  "--gpu",
                                  "A100-40GB",
                                  "--region",
                                  "us-central1-c",
                                  "--policy",
                                  "spot-only",
                                  "--managed-catalogue",
                                  "none",
                                  "-n",
                                  "8",
                                  "--threads",
                                  "1",
                                  "--format",
                                  "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool pruned = false;
  for (const auto& s : doc["skipped"]) {
    const std::string reason = s["reason"];
    if (s["offer"].get<std::string>().find("a2-highgpu-1g") != std::string::npos) {
      pruned = reason.rfind("spot-only: cannot finish: 0 of 4 pilot runs completed", 0) == 0;
    }
  }
  EXPECT_TRUE(pruned) << doc["skipped"].dump();
  ASSERT_EQ(doc["rows"].size(), 1u) << "the 8-GPU instances finish and are ranked";
  EXPECT_EQ(doc["rows"][0]["instance_type"], "a2-highgpu-8g");
}

}  // namespace
}  // namespace spotsim

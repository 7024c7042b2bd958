// `spotsim steptime` end to end: errors exit 2 with a message naming the problem; --job-out writes a job file
// that `simulate --job` accepts and resolves by the trace's GPU.
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "experiments/job_reader.hpp"
#include "experiments/simulation_request.hpp"
#include "sim/errors.hpp"
#include "test_paths.hpp"
#include "tools/commands.hpp"

namespace spotsim {
namespace {

struct CliResult {
  int code = 0;
  std::string out, err;
};

CliResult run_steptime(std::vector<std::string> args) {
  args.insert(args.begin(), "spotsim steptime");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = steptime_command(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

TEST(SteptimeCli, HelpDocumentsEveryOption) {
  const CliResult r = run_steptime({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* option : {"--target", "--measured-gpu", "--tf32", "--params", "--training-setup", "--write-gbps",
                             "--read-gbps", "--job-out", "--steps", "--validate", "--measured-link-gbps"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  }
}

TEST(SteptimeCli, UserErrorsExitTwo) {
  const std::string fixture = test::fixture("three_steps.json");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "expected a trace file"},
      {{fixture, "--target", "K80"}, "unknown GPU 'K80'"},
      {{fixture, "--tf32", "maybe"}, "--tf32"},
      {{fixture, "--job-out", "/tmp/x.json"}, "--job-out needs --steps"},
      {{fixture, "--params", "lots"}, "--params"},
      {{fixture, "--measured-link-gbps", "100"}, "must be given together"},
      {{"/nonexistent/trace.json.gz"}, "cannot open"},
      {{fixture, "--bogus"}, "bogus"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult r = run_steptime(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_NE(r.err.find("spotsim steptime: error: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(SteptimeCli, RocmTraceWithTargetsIsAnError) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const CliResult stats = run_steptime({test::hta_trace("mi250_minitoy_train_rocm62_tiny.json.gz")});
  EXPECT_EQ(stats.code, 0);
  EXPECT_NE(stats.out.find("AMD/ROCm"), std::string::npos);
  const CliResult r = run_steptime({test::hta_trace("mi250_minitoy_train_rocm62_tiny.json.gz"), "--target", "A100-40GB"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("AMD"), std::string::npos) << r.err;
}

TEST(SteptimeCli, JobFileRoundTripThroughSimulate) {
  test::TempDir dir("job");
  const std::string job_path = dir.file("job.json");
  const CliResult r = run_steptime({test::fixture("three_steps.json"), "--target", "A100-40GB,H100", "--steps", "1000",
                                    "--params", "10B", "--write-gbps", "2", "--job-out", job_path});
  ASSERT_EQ(r.code, 0) << r.err;
  // 10e9 x 14 B = 140 GB at 2 GB/s = 70 s: misses a 30 s notice, fits a 120 s one.
  EXPECT_NE(r.out.find("30 s preemption notice: does NOT fit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("120 s preemption notice: fits"), std::string::npos) << r.out;
  const nlohmann::json job = nlohmann::json::parse(std::ifstream(job_path));
  EXPECT_EQ(job["steps"], 1000.0);
  EXPECT_DOUBLE_EQ(job["checkpoint_size_gb"].get<double>(), 140.0);
  EXPECT_DOUBLE_EQ(job["checkpoint_write_s"].get<double>(), 70.0);
  ASSERT_TRUE(job["step_time_s_by_gpu"].contains("V100"));
  EXPECT_LT(job["step_time_s_by_gpu"]["H100"].get<double>(), job["step_time_s_by_gpu"]["V100"].get<double>());

  SimulationRequest request;
  apply_job_json(job, job_path, request.job, &request.gpu_step_times);
  ASSERT_TRUE(request.gpu_step_times.has_value());
  EXPECT_EQ(work_on_gpu(*request.gpu_step_times, "a100"),
            millis_from_seconds(1000.0 * job["step_time_s_by_gpu"]["A100-40GB"].get<double>()));
  request.replications = 5;
  request.threads = 1;
  const SimulationReport report = run_simulation(request);  // shipped trace us-west1: A100-40GB zones
  EXPECT_EQ(report.manifest["job"]["gpu"], "A100-40GB");
  EXPECT_EQ(report.runs.size(), 5u);

  nlohmann::json no_a100 = job;
  no_a100["step_time_s_by_gpu"].erase("A100-40GB");
  SimulationRequest missing;
  apply_job_json(no_a100, job_path, missing.job, &missing.gpu_step_times);
  try {
    run_simulation(missing);
    FAIL() << "a job without the trace's GPU must be rejected";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no step time for the trace's GPU 'A100-40GB'"), std::string::npos) << e.what();
  }
  JobSpec plain;
  EXPECT_THROW(apply_job_json(job, job_path, plain), InputError);  // a per-GPU job needs a known GPU
}

}  // namespace
}  // namespace spotsim

// `spotsim steptime --instance TYPE --nodes N` end to end: the scaling table, the layouts, the job-file fields,
// and errors for bad options (exit 2, message naming the option).
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "steptime_cli_runner.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

using test::CliResult;
using test::run_steptime;

TEST(DataParallelCli, JobFileHasStepTimePerInstanceCount) {
  test::TempDir dir("dp_cli");
  const std::string job = dir.file("job.json");
  const CliResult r =
      run_steptime({test::fixture("three_steps.json"), "--measured-gpu", "A100-40GB", "--params", "1.3B", "--instance",
                    "a2-highgpu-8g", "--nodes", "1..4", "--steps", "1000", "--job-out", job});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("data-parallel scaling"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 x a2-highgpu-8g"), std::string::npos) << r.out;   // 32 GPUs as 4 x 8 ...
  EXPECT_NE(r.out.find("32 x a2-highgpu-1g"), std::string::npos) << r.out;  // ... and 32 x 1, with prices
  nlohmann::json document;
  std::ifstream(job) >> document;
  EXPECT_EQ(document["gpus_per_instance"], 8);
  const auto& by_nodes = document["step_time_s_by_nodes"];
  ASSERT_EQ(by_nodes.size(), 4u);
  // 1.3 B fp32 gradients: 5.2 GB cross a 100 Gbit/s network from two instances on, so each step is longer.
  for (std::size_t k = 1; k < by_nodes.size(); ++k) EXPECT_GT(by_nodes[k].get<double>(), by_nodes[k - 1].get<double>());
}

TEST(DataParallelCli, InputPipelineShowsWhichSideBinds) {
  // 8 GPUs on a2-highgpu-8g, 32 samples per GPU: loaders of 1 sample/s bind; loaders of 1e6 samples/s do not.
  const std::string fixture = test::fixture("three_steps.json");
  const std::vector<std::string> base = {fixture,      "--measured-gpu", "A100-40GB", "--params", "1B",
                                         "--instance", "a2-highgpu-8g",  "--batch",   "32"};
  std::vector<std::string> slow = base;
  for (const char* a : {"--loader-rate", "1", "--loader-workers", "4", "--host-cores", "16"}) slow.push_back(a);
  const CliResult r = run_steptime(slow);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("input: 4 loader workers per GPU at 1.0 samples/s each, sharing 16 cores per instance"),
            std::string::npos)
      << r.out;
  // 32 samples / (4 workers x 1 sample/s x 16/32 of a core) = 16 s per step.
  EXPECT_NE(r.out.find("16000.00  input"), std::string::npos) << r.out;
  std::vector<std::string> fast = base;
  for (const char* a : {"--loader-rate", "1000000"}) fast.push_back(a);
  const CliResult f = run_steptime(fast);
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_NE(f.out.find("  GPU\n"), std::string::npos) << f.out;
}

TEST(DataParallelCli, BadOptionsExitTwo) {
  const std::string fixture = test::fixture("three_steps.json");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{fixture, "--instance", "a2-highgpu-8g"}, "--instance needs --params"},
      {{fixture, "--params", "1B", "--instance", "x9.huge"}, "unknown instance type 'x9.huge'"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--nodes", "0"}, "--nodes"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--nodes", "2..4"}, "--nodes"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--nodes", "1025"}, "1024"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--gradient-bytes", "0"}, "--gradient-bytes"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--overlap", "1.5"}, "--overlap"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--allreduce", "butterfly"}, "--allreduce"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--links", "/nonexistent.json"}, "--links"},
      {{fixture, "--params", "1B", "--instance", "g5.xlarge"}, "A10G"},
      {{fixture, "--nodes", "4"}, "--nodes needs --instance"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--loader-rate", "100"},
       "--loader-rate needs --batch"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--batch", "32", "--loader-rate", "0"},
       "--loader-rate: expected"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--batch", "32", "--loader-rate", "100",
        "--loader-workers", "0"},
       "--loader-workers: expected 1 to 1024"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--batch", "32", "--loader-rate", "100",
        "--host-cores", "0.5"},
       "--host-cores: expected"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--loader-workers", "4"},
       "--loader-workers needs --loader-rate"},
      {{fixture, "--params", "1B", "--instance", "a2-highgpu-8g", "--host-cores", "48"},
       "--host-cores needs --loader-rate"},
      {{fixture, "--loader-rate", "100"}, "--loader-rate needs --instance"},
  };
  for (const auto& [args, message] : cases) {
    const CliResult r = run_steptime(args);
    EXPECT_EQ(r.code, 2) << message;
    EXPECT_NE(r.err.find(message), std::string::npos) << "expected '" << message << "' in: " << r.err;
  }
}

}  // namespace
}  // namespace spotsim

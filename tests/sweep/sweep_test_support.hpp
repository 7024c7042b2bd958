#pragma once
// Helpers shared by the sweep tests: temporary directories, file contents, the sweep and regress commands run in
// process with their output captured, and a small spec on the shipped us-west1 trace.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim::testing {

namespace fs = std::filesystem;

inline fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("spotsim_sweep_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

inline std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline fs::path write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

using Outcome = test::CliResult;

inline Outcome run_command(int (*command)(int, const char* const*), const std::string& name,
                           std::vector<std::string> args) {
  return test::run_cli(command, name, std::move(args));
}

inline Outcome sweep(std::vector<std::string> args) {
  return run_command(sweep_command, "spotsim sweep", std::move(args));
}
inline Outcome regress(std::vector<std::string> args) {
  return run_command(regress_command, "spotsim regress", std::move(args));
}

// 3 policies x (young-daly + 3 fixed intervals) x 2 job variants x 40 replications on us-west1, in chunks of 50
// runs: 960 runs, 20 chunks, chunk boundaries that do not line up with configurations.
inline std::string small_spec_text() {
  return R"({
    "format": "spotsim-experiment", "version": 1, "name": "small", "seed": 11, "replications": 40,
    "traces": ["us-west1"],
    "policies": ["on-demand", "spot-only", "adaptive:margin=2h"],
    "baseline_policy": "on-demand",
    "checkpoints": ["young-daly"],
    "checkpoint_intervals": ["20m", "1h", "3h"],
    "job": {"work_hours": 12},
    "job_grid": {"deadline_hours": [null, 16]},
    "chunk_runs": 50
  })";
}

}  // namespace spotsim::testing

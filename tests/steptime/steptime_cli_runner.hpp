#pragma once
// Runs `spotsim steptime` in-process with its output captured, for the steptime CLI tests.
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim::test {

inline CliResult run_steptime(std::vector<std::string> args) {
  return run_cli(steptime_command, "spotsim steptime", std::move(args));
}

}  // namespace spotsim::test

#pragma once
// Runs `spotsim steptime` in-process with its output captured, for the steptime CLI tests.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/commands.hpp"

namespace spotsim::test {

struct CliResult {
  int code = 0;
  std::string out, err;
};

inline CliResult run_steptime(std::vector<std::string> args) {
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

}  // namespace spotsim::test

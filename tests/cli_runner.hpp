#pragma once
// Runs a `spotsim` subcommand in-process with its stdout and stderr captured, for the CLI tests of each area.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace spotsim::test {

struct CliResult {
  int code = 0;
  std::string out, err;
};

// `command` is a subcommand's entry point (cli/commands.hpp); `program` its argv[0], e.g. "spotsim advise".
inline CliResult run_cli(int (*command)(int, const char* const*), const std::string& program,
                         std::vector<std::string> args) {
  args.insert(args.begin(), program);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = command(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

}  // namespace spotsim::test

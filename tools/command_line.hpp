#pragma once
// Command-line parsing shared by subcommands: Boost.Program_options with positional arguments, its errors turned
// into InputError (one line, exit code 2), and the --threads check every parallel command makes.
#include <string>

#include <boost/program_options.hpp>

#include "sim/errors.hpp"

namespace spotsim {

inline boost::program_options::variables_map parse_command_line(
    int argc, const char* const* argv, const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description& positional) {
  namespace po = boost::program_options;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError(e.what());
  }
  return vm;
}

// --threads N: 0 = all cores.
inline int thread_count_option(const boost::program_options::variables_map& vm) {
  const int threads = vm["threads"].as<int>();
  if (threads < 0 || threads > 4096) throw InputError("--threads: expected 0 (all cores) to 4096");
  return threads;
}

}  // namespace spotsim

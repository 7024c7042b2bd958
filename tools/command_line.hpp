#pragma once
// Command-line parsing shared by subcommands: Boost.Program_options (with or without positional arguments) whose
// errors become InputError (one line, exit code 2), the --threads check, and the --format/--output pair of commands
// that print a table or write JSON/CSV.
#include <iostream>
#include <string>

#include <boost/program_options.hpp>

#include "experiments/atomic_file.hpp"
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

inline boost::program_options::variables_map parse_command_line(
    int argc, const char* const* argv, const boost::program_options::options_description& options) {
  return parse_command_line(argc, argv, options, boost::program_options::positional_options_description{});
}

// --format table|json|csv, or when absent the extension of --output (.json, .csv), else a table.
inline std::string output_format_option(const boost::program_options::variables_map& vm) {
  std::string format = "table";
  if (vm.count("format")) {
    format = vm["format"].as<std::string>();
  } else if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    if (path.ends_with(".json")) format = "json";
    else if (path.ends_with(".csv")) format = "csv";
    else throw InputError("--output '" + path + "': cannot tell the format from the extension; expected .json or .csv, or give --format");
  }
  if (format != "table" && format != "json" && format != "csv") {
    throw InputError("--format '" + format + "': expected table, json or csv");
  }
  return format;
}

// Writes a command's result to --output (atomically: never a half-written file) or to stdout.
inline void emit_output(const boost::program_options::variables_map& vm, const std::string& text,
                        const std::string& program) {
  if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    write_file_atomically(path, text);
    std::cerr << program << ": wrote " << path << "\n";
  } else {
    std::cout << text;
  }
}

// --threads N: 0 = all cores.
inline int thread_count_option(const boost::program_options::variables_map& vm) {
  const int threads = vm["threads"].as<int>();
  if (threads < 0 || threads > 4096) throw InputError("--threads: expected 0 (all cores) to 4096");
  return threads;
}

}  // namespace spotsim

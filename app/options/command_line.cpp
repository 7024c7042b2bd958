#include "app/options/command_line.hpp"

#include <iostream>

#include "base/atomic_file.hpp"
#include "base/data_size.hpp"
#include "base/errors.hpp"
#include "base/file_checks.hpp"
#include "base/integer_text.hpp"
#include "policies/plugin/plugin_loader.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

// What an option of this type expects, for Boost's "the argument ('x') for option '--y' is invalid".
std::string expected_kind(const po::options_description& options, const std::string& option) {
  std::string key = option;
  while (!key.empty() && key.front() == '-') key.erase(0, 1);
  const po::option_description* description = options.find_nothrow(key, false);
  if (description == nullptr) return "a valid value";
  const po::value_semantic* semantic = description->semantic().get();
  if (dynamic_cast<const po::typed_value<double>*>(semantic)) return "a finite number";
  if (dynamic_cast<const po::typed_value<int>*>(semantic)) return "an integer";
  return "a valid value";
}

InputError option_error(const po::error& e, const po::options_description& options) {
  const std::string what = e.what();
  // "the argument ('VALUE') for option '--NAME' is invalid", taken apart without std::regex, whose recursion
  // overflows the stack on a long argument.
  static const std::string head = "the argument ('", middle = "') for option '", tail = "' is invalid";
  const std::size_t split = what.rfind(middle);
  if (dynamic_cast<const po::invalid_option_value*>(&e) && what.starts_with(head) && what.ends_with(tail) &&
      split != std::string::npos && split >= head.size()) {
    std::string value = what.substr(head.size(), split - head.size());
    if (value.size() > 40) value = value.substr(0, 37) + "...";
    const std::string option = what.substr(split + middle.size(), what.size() - tail.size() - split - middle.size());
    return InputError(option + ": expected " + expected_kind(options, option) + ", got '" + value + "'");
  }
  if (dynamic_cast<const po::unknown_option*>(&e) || dynamic_cast<const po::too_many_positional_options_error*>(&e)) {
    return InputError(what + " (see --help for the options)");
  }
  return InputError(what);
}

}  // namespace

po::variables_map parse_command_line(int argc, const char* const* argv, const po::options_description& options,
                                     const po::positional_options_description& positional) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw option_error(e, options);
  }
  return vm;
}

po::variables_map parse_command_line(int argc, const char* const* argv, const po::options_description& options) {
  return parse_command_line(argc, argv, options, po::positional_options_description{});
}

std::uint64_t count_option(const po::variables_map& vm, const char* name, std::uint64_t min, std::uint64_t max) {
  return parse_integer_in_range(vm[name].as<std::string>(), min, max, std::string("--") + name);
}

int int_count_option(const po::variables_map& vm, const char* name, int min, int max) {
  return static_cast<int>(count_option(vm, name, static_cast<std::uint64_t>(min), static_cast<std::uint64_t>(max)));
}

std::uint64_t seed_option(const po::variables_map& vm) { return count_option(vm, "seed", 0, kMaxSeed); }

std::optional<double> checkpoint_size_option(const po::variables_map& vm) {
  if (vm.count("checkpoint-size") && vm.count("checkpoint-size-gb")) {
    throw InputError("--checkpoint-size and --checkpoint-size-gb: give one of them, not both");
  }
  for (const char* name : {"checkpoint-size", "checkpoint-size-gb"}) {
    if (vm.count(name)) return parse_data_size_gb(vm[name].as<std::string>(), std::string("--") + name);
  }
  return std::nullopt;
}

int thread_count_option(const po::variables_map& vm) {
  return int_count_option(vm, "threads", 0, static_cast<int>(kMaxThreads));
}

void check_output_option(const po::variables_map& vm) {
  if (!vm.count("output")) return;
  const std::string path = vm["output"].as<std::string>();
  const std::string problem = output_file_problem(path);
  if (!problem.empty()) throw InputError("--output '" + path + "': " + problem);
}

std::string output_format_option(const po::variables_map& vm) {
  check_output_option(vm);
  std::string format = "table";
  if (vm.count("format")) {
    format = vm["format"].as<std::string>();
  } else if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    if (path.ends_with(".json"))
      format = "json";
    else if (path.ends_with(".csv"))
      format = "csv";
    else
      throw InputError("--output '" + path +
                       "': cannot tell the format from the extension; expected .json or .csv, or give --format");
  }
  if (format != "table" && format != "json" && format != "csv") {
    throw InputError("--format '" + format + "': expected table, json or csv");
  }
  return format;
}

void emit_output(const po::variables_map& vm, const std::string& text, const std::string& program) {
  if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    write_file_atomically(path, text);
    std::cerr << program << ": wrote " << path << "\n";
  } else {
    std::cout << text;
  }
}

void add_plugin_option(boost::program_options::options_description& options) {
  options.add_options()("plugin", boost::program_options::value<std::vector<std::string>>()->composing(),
                        "load policies from a shared library built against policies/plugin/spotsim_plugin.h "
                        "(repeatable; docs/plugins.md)");
}

void load_plugin_options(const boost::program_options::variables_map& vm) {
  if (!vm.count("plugin")) return;
  for (const std::string& file : vm["plugin"].as<std::vector<std::string>>()) load_policy_plugin(file);
}

void add_zone_selection_options(po::options_description& options) {
  options.add_options()("regions", po::value<std::string>(),
                        "use only these regions of the trace, e.g. us-central1,us-east4 [default: all]")(
      "zones", po::value<std::string>(),
      "use only these zones of the trace, e.g. us-east4-a,us-east4-b (not with --regions)");
}

ZoneSelection zone_selection_option(const po::variables_map& vm) {
  if (vm.count("regions") && vm.count("zones")) throw InputError("--regions and --zones: give one of them, not both");
  ZoneSelection selection;
  for (const char* option : {"regions", "zones"}) {
    if (!vm.count(option)) continue;
    selection.by = std::string(option) == "regions" ? ZoneSelection::By::kRegions : ZoneSelection::By::kZones;
    selection.names = split_name_list(vm[option].as<std::string>(), std::string("--") + option);
  }
  return selection;
}

const char* zone_selection_option_name(const ZoneSelection& selection) {
  return selection.by == ZoneSelection::By::kRegions ? "--regions" : "--zones";
}

}  // namespace spotsim

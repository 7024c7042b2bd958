#pragma once
// Command-line parsing shared by subcommands: Boost.Program_options (with or without positional arguments) whose
// errors become InputError (one line, exit code 2, naming the option and what it expects); seeds and counts (one
// rule for all of them: base/integer_text.hpp); --output checked before any work starts (input files are checked
// where they are read: base/file_checks.hpp); the --format/--output pair of commands that print a table or write
// JSON/CSV.
#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "model/market/zone_selection.hpp"

namespace spotsim {

boost::program_options::variables_map parse_command_line(
    int argc, const char* const* argv, const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description& positional);
boost::program_options::variables_map parse_command_line(int argc, const char* const* argv,
                                                         const boost::program_options::options_description& options);

// Limits of the counts several commands share (documented in their --help and docs/).
inline constexpr std::uint64_t kMaxThreads = 4096;
inline constexpr std::uint64_t kMaxNodes = 100000;

// Option NAME, declared as po::value<std::string>(), read as a whole number in [min, max]; InputError
// "--NAME: expected an integer in [MIN, MAX], got 'TEXT'" for a negative, a fraction, "1e12" or out of range.
std::uint64_t count_option(const boost::program_options::variables_map& vm, const char* name, std::uint64_t min,
                           std::uint64_t max);
int int_count_option(const boost::program_options::variables_map& vm, const char* name, int min, int max);
// --seed: 0 to 2^64 - 1.
std::uint64_t seed_option(const boost::program_options::variables_map& vm);
// --threads N: 0 = all cores, at most kMaxThreads.
int thread_count_option(const boost::program_options::variables_map& vm);

// --checkpoint-size (or the older --checkpoint-size-gb; not both), declared as po::value<std::string>(): "20GB",
// "18.6GiB", a bare number in GB (base/data_size.hpp); nullopt when neither is given.
std::optional<double> checkpoint_size_option(const boost::program_options::variables_map& vm);

// --regions / --zones: which part of the trace a run may use (not both), declared and read alike by every command
// that has them. The selection is checked against the trace where it is applied (select_zones).
void add_zone_selection_options(boost::program_options::options_description& options);
ZoneSelection zone_selection_option(const boost::program_options::variables_map& vm);
// The option a selection came from, for select_zones' messages: "--regions" or "--zones".
const char* zone_selection_option_name(const ZoneSelection& selection);

// Checks --output, when given, before any work: not a directory, its directory exists.
void check_output_option(const boost::program_options::variables_map& vm);

// --format table|json|csv, or when absent the extension of --output (.json, .csv), else a table. Checks --output.
std::string output_format_option(const boost::program_options::variables_map& vm);

// Writes a command's result to --output (atomically: never a half-written file) or to stdout.
void emit_output(const boost::program_options::variables_map& vm, const std::string& text, const std::string& program);

// --plugin FILE (repeatable): policy plugins (docs/plugins.md), loaded by load_plugin_options() before anything
// asks for a policy by name, --list-policies included.
void add_plugin_option(boost::program_options::options_description& options);
void load_plugin_options(const boost::program_options::variables_map& vm);

}  // namespace spotsim

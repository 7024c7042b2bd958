#pragma once
// The subcommands of `spotsim trace` (docs/traces.md), and what they share: the options that describe how to
// read a recording, and how results are written.
#include <boost/program_options.hpp>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

int trace_convert_command(int argc, const char* const* argv);
int trace_inspect_command(int argc, const char* const* argv);
int trace_fit_command(int argc, const char* const* argv);
int trace_generate_command(int argc, const char* const* argv);
int trace_reshape_command(int argc, const char* const* argv);

// --from, --zone-name, --only-zone, --time-unit, --span: how to read the inputs.
boost::program_options::options_description input_options();
// --instance-type, --gpu, --gpus-per-instance, --on-demand-price, --spot-price, --notice: what the zones offer.
boost::program_options::options_description offer_options();
ImportOptions import_options_from(const boost::program_options::variables_map& vm);

// Reads every --input with --from and merges them (one zone per single-zone input; --zone-name, if given, must
// name each of them in order: --zone-name a --zone-name b).
ImportedTrace import_inputs(const boost::program_options::variables_map& vm);

// Parses argv against `options` (with the positional "input" files when `positional_inputs`); InputError on a
// bad option.
boost::program_options::variables_map parse_trace_options(int argc, const char* const* argv,
                                                          const boost::program_options::options_description& options,
                                                          bool positional_inputs);

// A trace document as `trace convert` and `trace reshape` write it: one line per top-level field and per zone.
std::string format_trace_document(const nlohmann::json& doc);

// Writes `text` to --output atomically (and says so on stderr), or to stdout.
void emit(const boost::program_options::variables_map& vm, const std::string& text, const std::string& program);

// "table" or "json", from --format or --output's extension (.json).
std::string table_or_json(const boost::program_options::variables_map& vm);

// Runs `body`, turning InputError into "program: error: ..." and exit code 2.
int run_reporting_errors(const std::string& program, int (*body)(int, const char* const*, const std::string&), int argc,
                         const char* const* argv);

}  // namespace spotsim

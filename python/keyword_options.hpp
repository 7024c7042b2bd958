#pragma once
// A Python function's keyword arguments read through a CLI command's own option schema (a
// boost::program_options::options_description declared once in app/): keys are the long option names with '-'
// written '_', None counts as absent, a flag takes True or False, anything else is passed as the command line
// would carry it. The command's defaults, ranges, precedence rules and messages then apply by construction, and
// every message names the option as the CLI spells it (checkpoint_write -> --checkpoint-write).
#include <pybind11/pybind11.h>

#include <boost/program_options.hpp>
#include <string>

namespace spotsim::python {

// The option as the CLI writes it: give_up_after -> --give-up-after.
std::string cli_name(std::string key);

// InputError in boost::program_options' wording for a key the schema does not declare.
boost::program_options::variables_map parse_keyword_options(const pybind11::dict& options,
                                                            const boost::program_options::options_description& schema);

// The schema as rows {"name", "default" (the CLI's text, None when it has none), "flag", "help"}, for the parity
// tests and the docs: what a Python signature must mirror.
pybind11::list option_schema_rows(const boost::program_options::options_description& schema);

}  // namespace spotsim::python

// `spotsim options [COMMAND...]`: every command's options as Markdown tables, read from the schemas the parsers use.
// Its whole output is docs/options.md (tools/docs/options_reference.py writes and checks it).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "app/options/option_reference.hpp"
#include "base/errors.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"

namespace spotsim {

namespace {

struct Schema {
  const char* command;
  boost::program_options::options_description (*options)();
};

const std::vector<Schema>& schemas() {
  static const std::vector<Schema> all = {
      {"simulate", simulate_command_options},
      {"campaign", campaign_command_options},
      {"advise", advise_command_options},
      {"bound", bound_command_options},
      {"regress", regress_command_options},
      {"steptime", steptime_command_options},
      {"trace convert", trace_convert_command_options},
      {"trace inspect", trace_inspect_command_options},
      {"trace fit", trace_fit_command_options},
      {"trace generate", trace_generate_command_options},
      {"trace reshape", trace_reshape_command_options},
  };
  return all;
}

void print_reference(std::ostream& out, const std::vector<std::string>& only) {
  if (only.empty()) {
    out << "# Options of every command\n\n"
           "Written by `spotsim options` from the option schemas the commands parse with (the same schemas give\n"
           "`--help` and, for `simulate` and `campaign`, the Python keyword arguments: [python.md](python.md)), so\n"
           "this page cannot drift from them; the test `docs.options_reference` fails when it is not current\n"
           "(`python3 tools/docs/options_reference.py --update` rewrites it). Durations take a unit (90s, 30m, 2h,\n"
           "1.5d); `VALUE` marks an option that takes one. `spotsim sweep` and `spotsim report` take a spec or\n"
           "result files ([experiments.md](experiments.md), [report.md](report.md)).\n";
  }
  for (const Schema& schema : schemas()) {
    if (!only.empty() && std::find(only.begin(), only.end(), schema.command) == only.end()) continue;
    out << (only.empty() ? "\n" : "") << "## spotsim " << schema.command << "\n\n"
        << option_reference_markdown(option_rows(schema.options()));
  }
}

}  // namespace

int options_command(int argc, const char* const* argv) {
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string name = argv[i];
    if (name == "--help" || name == "-h") {
      std::cout << "Usage: " << argv[0]
                << " [COMMAND ...]\n  every command's options as Markdown tables (the "
                   "reference docs/options.md); COMMAND names one, e.g. simulate or 'trace fit'\n";
      return 0;
    }
    if (name == "trace" && i + 1 < argc) name += std::string(" ") + argv[++i];
    const bool known =
        std::any_of(schemas().begin(), schemas().end(), [&](const Schema& s) { return name == s.command; });
    if (!known) {
      std::cerr << argv[0] << ": error: no command '" << name << "'; the commands with options are:";
      for (const Schema& s : schemas()) std::cerr << " '" << s.command << "'";
      std::cerr << "\n";
      return 2;
    }
    only.push_back(name);
  }
  print_reference(std::cout, only);
  return 0;
}

}  // namespace spotsim

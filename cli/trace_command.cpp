// `spotsim trace`: real traces in, fitted models out. Dispatches to convert / inspect / fit / generate.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/trace_subcommands.hpp"

namespace spotsim {

namespace {

struct TraceSubcommand {
  const char* name;
  const char* summary;
  int (*run)(int, const char* const*);
};

constexpr TraceSubcommand kTraceSubcommands[] = {
    {"convert", "any supported format -> spotsim trace v1 (zones from several files merge into one trace)",
     trace_convert_command},
    {"inspect", "summary of a trace: span, availability, preemptions per instance-hour, uptimes, prices",
     trace_inspect_command},
    {"fit", "fit exponential, Weibull and bathtub lifetimes; R^2 and Kolmogorov-Smirnov distance", trace_fit_command},
    {"generate", "synthetic trace from a lifetime model and a seed", trace_generate_command},
    {"reshape", "re-price, re-shape (instance type, GPU, GPUs per instance) or rename, with provenance",
     trace_reshape_command},
    {"reprice", "the same as reshape", trace_reshape_command},
};

void trace_usage(std::ostream& out, const std::string& program) {
  out << "Usage: " << program << " <subcommand> [options]    (" << program
      << " <subcommand> --help for its options)\n\n"
      << "Subcommands:\n";
  for (const auto& c : kTraceSubcommands)
    out << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
  out << "\nFormats, shipped traces and examples: docs/traces.md\n";
}

}  // namespace

int trace_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim trace";
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    trace_usage(argc < 2 ? std::cerr : std::cout, program);
    return argc < 2 ? 2 : 0;
  }
  for (const auto& c : kTraceSubcommands) {
    if (argv[1] == std::string(c.name)) {
      const std::string display = program + " " + c.name;
      std::vector<const char*> args(argv + 1, argv + argc);
      args[0] = display.c_str();
      return c.run(argc - 1, args.data());
    }
  }
  std::cerr << program << ": error: unknown subcommand '" << argv[1] << "'\n";
  trace_usage(std::cerr, program);
  return 2;
}

}  // namespace spotsim

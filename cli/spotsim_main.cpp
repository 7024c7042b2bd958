// `spotsim`: the umbrella executable; the first argument names the subcommand.
#include <cstring>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "spotsim/version.hpp"

namespace {

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(int, const char* const*);
};

constexpr Subcommand kSubcommands[] = {
    {"simulate", "simulate a training job on spot/on-demand instances (Monte Carlo)", spotsim::simulate_command},
    {"steptime", "per-step GPU time from a PyTorch profiler trace, predicted on other GPUs", spotsim::steptime_command},
    {"trace", "convert, inspect, fit and generate spot traces (see docs/traces.md)", spotsim::trace_command},
    {"advise", "where should I train this? rank GPU offers and policies by simulated cost and time",
     spotsim::advise_command},
    {"sweep", "run an experiment spec: policies x traces x jobs, summaries, Pareto, tuning", spotsim::sweep_command},
    {"regress", "re-run committed baselines; fail on regressions beyond Monte Carlo noise", spotsim::regress_command},
    {"campaign", "many jobs on limited spot capacity: makespan, cost split and capacity use per policy",
     spotsim::campaign_command},
    {"bound", "the exact offline optimum of one trace window: what knowing the future would pay, and how",
     spotsim::bound_command},
    {"report", "one self-contained HTML page of a simulate or sweep result: charts, run timelines",
     spotsim::report_command},
    {"score", "a sky_spot strategy file scored as a public harness scores it (--harness adrs-leaderboard, ...)",
     spotsim::score_command},
    {"options", "every command's options as Markdown tables (docs/options.md)", spotsim::options_command},
};

void usage(std::ostream& out) {
  out << "Usage: spotsim <command> [options]    (spotsim <command> --help for its options)\n\nCommands:\n";
  for (const auto& c : kSubcommands)
    out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::cout << "spotsim " << spotsim::kVersion << " (" << spotsim::kGitRevision << ")\n";
    return 0;
  }
  for (const auto& c : kSubcommands) {
    if (argv[1] == std::string(c.name)) {
      const std::string display = std::string("spotsim ") + c.name;
      argv[1] = const_cast<char*>(display.c_str());
      return c.run(argc - 1, argv + 1);
    }
  }
  std::cerr << "spotsim: error: unknown command '" << argv[1] << "'\n";
  usage(std::cerr);
  return 2;
}

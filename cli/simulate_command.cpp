// `spotsim simulate` / `simulate`: Monte Carlo simulation of one job under one selection and checkpoint policy.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <string>

#include "app/checkpoint_schedule_table.hpp"
#include "app/job_reader.hpp"
#include "app/options/command_line.hpp"
#include "app/options/simulate_request_options.hpp"
#include "app/report_writer.hpp"
#include "app/simulation_request.hpp"
#include "app/streaming_report.hpp"
#include "app/timeline_writer.hpp"
#include "base/data_size.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/file_checks.hpp"
#include "base/json_fields.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "cli/terminal_progress.hpp"
#include "policies/policy_registry.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

void print_policies(std::ostream& out) {
  const PolicyRegistry registry = policy_registry();
  out << "Selection policies (--policy NAME[:key=value,...]):\n";
  for (const auto& p : registry.selection_policies()) {
    out << "  " << p.name << "\n      " << p.description << "\n";
    if (!p.parameters.empty()) out << "      parameters: " << p.parameters << "\n";
  }
  out << "\nMulti-node policies (--policy NAME[:key=value,...] with --min-nodes; docs/elastic.md):\n";
  for (const auto& p : registry.node_policies()) {
    out << "  " << p.name << "\n      " << p.description << "\n";
    if (!p.parameters.empty()) out << "      parameters: " << p.parameters << "\n";
  }
  out << "\nCheckpoint policies (--checkpoint NAME[:key=value,...]):\n";
  for (const auto& p : registry.checkpoint_policies()) {
    out << "  " << p.name << "\n      " << p.description << "\n";
    if (!p.parameters.empty()) out << "      parameters: " << p.parameters << "\n";
  }
}

po::options_description simulate_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")("version", "print the version and exit")(
      "list-policies", "list selection and checkpoint policies with their parameters and exit")(
      "checkpoint-schedule",
      "instead of simulating, write the checkpoint policy's plan (CSV: the instance ages of its checkpoints on a "
      "fresh spot instance in the trace's first zone; --checkpoint schedule:FILE replays it; docs/policies.md)");
  add_plugin_option(general);
  po::options_description output("Output");
  output.add_options()("format,f", po::value<std::string>(),
                       "table | json | csv (per-run rows) [default: table, or from --output's extension]")(
      "output,o", po::value<std::string>(), "write the result to this file (written atomically) instead of stdout")(
      "quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)");
  po::options_description all;
  all.add(general).add(simulate_request_options()).add(output);
  return all;
}

// After the Monte Carlo run (whichever way its output went): the chosen replications re-run with an observer.
void write_timeline_if_asked(const std::optional<TimelinePlan>& plan, const SimulationRequest& request,
                             const std::string& program) {
  if (!plan) return;
  write_timeline(request, plan->replications, plan->path);
  std::cerr << program << ": wrote " << plan->path << "\n";
}

}  // namespace

boost::program_options::options_description simulate_command_options() { return simulate_options(); }

int simulate_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "simulate";
  try {
    const auto options = simulate_options();
    const po::variables_map vm = parse_command_line(argc, argv, options);
    if (vm.count("help")) {
      std::cout << "Usage: " << program << " [options]\n\n"
                << "Simulate one training job on spot/preemptible and on-demand instances and report cost and\n"
                << "completion time over Monte Carlo replications.\n\n"
                << "Example: " << program
                << " --policy adaptive --trace traces/library/us-west1.json --work 48h --deadline 60h\n"
                << options << "\n";
      return 0;
    }
    if (vm.count("version")) {
      std::cout << "spotsim " << kVersion << " (" << kGitRevision << ")\n";
      return 0;
    }
    load_plugin_options(vm);
    if (vm.count("list-policies")) {
      print_policies(std::cout);
      return 0;
    }
    const std::string format = output_format_option(vm);
    SimulationRequest request = simulation_request_from(vm);
    if (vm.count("checkpoint-schedule")) {
      if (vm.count("format") && format != "csv") {
        throw InputError("--checkpoint-schedule: writes CSV; expected --format csv or none, got '" + format + "'");
      }
      emit_output(vm, checkpoint_schedule_csv(planned_checkpoints(request)), program);
      return 0;
    }
    // Streamed: per-run rows go out as they are computed, so memory stays bounded at any replication count.
    const std::string output = vm.count("output") ? vm["output"].as<std::string>() : std::string();
    const std::optional<TimelinePlan> timeline = timeline_plan_from(vm, request);  // checked before the run
    // Two outputs into one file would leave only the last one written (the result used to be overwritten).
    if (timeline && same_output(timeline->path, output.empty() ? "-" : output)) {
      throw InputError("--timeline: " + timeline->path + " is also where the result goes (" +
                       (output.empty() ? std::string("stdout") : "-o " + output) + "); give each its own file");
    }
    // Rows streamed to a terminal show their own progress; a line between them would only garble both.
    const bool rows_on_terminal = output.empty() && format != "table" && isatty(STDOUT_FILENO) == 1;
    ReplicationProgress progress;
    progress.total = request.replications;
    TerminalProgress line(program, "replications", progress_wanted(vm.count("quiet") > 0) && !rows_on_terminal,
                          std::cerr);
    if (line.enabled()) request.progress = &progress;
    if (line.enabled() && format == "table" && output.empty()) {
      // The line is finished before the table is printed, so the two never share a terminal line.
      const SimulationReport report = [&] {
        ReplicationProgressWatcher watcher(line, progress);
        SimulationReport r = run_simulation(request, nullptr);
        watcher.finish();
        return r;
      }();
      std::cout << report_table(report) << std::flush;
      if (!std::cout) throw InputError("stdout: write failed (disk full?)");
      write_timeline_if_asked(timeline, request, program);
      return 0;
    }
    ReplicationProgressWatcher watcher(line, progress);
    write_simulation(request, format, output, std::cout);
    watcher.finish();
    if (!output.empty()) std::cerr << program << ": wrote " << output << "\n";
    write_timeline_if_asked(timeline, request, program);
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim

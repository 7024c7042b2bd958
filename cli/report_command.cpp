// `spotsim report RESULT [--timeline FILE] -o report.html`: one self-contained HTML page of a simulate or sweep
// result (docs/report.md).
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "app/options/command_line.hpp"
#include "app/report/report_html.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"
#include "cli/commands.hpp"

namespace spotsim {

namespace po = boost::program_options;

int report_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim report";
  try {
    po::options_description options("Options");
    options.add_options()("help,h", "show this help and exit")(
        "result", po::value<std::string>(), "a `simulate --format json` output file, or a sweep output directory")(
        "timeline", po::value<std::string>(),
        "a `simulate --timeline` file: draw those runs' timelines (default: the timelines a simulate JSON "
        "carries)")("output,o", po::value<std::string>(), "the HTML file to write (atomically) [required]");
    po::positional_options_description positional;
    positional.add("result", 1);
    const po::variables_map vm = parse_command_line(argc, argv, options, positional);
    if (vm.count("help")) {
      std::cout
          << "Usage: " << program << " RESULT [--timeline FILE] -o report.html\n\n"
          << "Write one self-contained HTML page (inline SVG and CSS, viewable offline) of a result: the\n"
          << "summary with 95% intervals, cost against completion time with the Pareto frontier, the\n"
          << "distributions of cost and completion time, run timelines, regret, the manifest (docs/report.md).\n\n"
          << "Example: simulate --policy adaptive -n 200 --format json -o r.json --timeline r.jsonl\n"
          << "         " << program << " r.json --timeline r.jsonl -o r.html\n\n"
          << options << "\n";
      return 0;
    }
    if (!vm.count("result"))
      throw InputError("expected RESULT: a `simulate --format json` output or a sweep directory");
    if (!vm.count("output")) throw InputError("--output: expected the HTML file to write (-o report.html)");
    check_output_option(vm);
    const ReportInput input = read_report_input(vm["result"].as<std::string>());
    std::optional<TimelineFile> timeline;
    if (vm.count("timeline")) {
      timeline = read_timeline_file(vm["timeline"].as<std::string>());
    } else if (!input.embedded_timeline.empty()) {  // a simulate JSON carries its first runs' timelines
      timeline = read_timeline_text(input.embedded_timeline, input.source + ": field 'timeline'");
    }
    const std::string output = vm["output"].as<std::string>();
    write_file_atomically(output, render_report_html(input, timeline ? &*timeline : nullptr));
    std::cerr << program << ": wrote " << output << "\n";
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim

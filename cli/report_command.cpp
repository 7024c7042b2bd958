// `spotsim report RESULT... [--timeline FILE]... -o report.html`: one self-contained HTML page of a simulate, sweep
// or campaign result, or of several simulate results compared (docs/report.md).
#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/report/report_page.hpp"
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
        "result", po::value<std::vector<std::string>>(),
        "a `simulate --format json` or `campaign --format json` output, or a sweep output directory; several "
        "simulate outputs: one page comparing them")(
        "timeline", po::value<std::vector<std::string>>(),
        "a `simulate --timeline` file: draw those runs' timelines; with several RESULTs give one per RESULT, in "
        "the same order (default: the timelines each simulate JSON carries)")(
        "output,o", po::value<std::string>(), "the HTML file to write (atomically) [required]");
    po::positional_options_description positional;
    positional.add("result", -1);
    const po::variables_map vm = parse_command_line(argc, argv, options, positional);
    if (vm.count("help")) {
      std::cout
          << "Usage: " << program << " RESULT [RESULT...] [--timeline FILE]... -o report.html\n\n"
          << "Write one self-contained HTML page (inline SVG and CSS, a few lines of inline script to zoom the\n"
          << "timelines, viewable offline) of a result: the summary with 95% intervals, cost against completion\n"
          << "time with the Pareto frontier, the distributions of cost and completion time, run timelines, regret,\n"
          << "the manifest; for a campaign, each job's turnaround and the break-even. Several simulate results:\n"
          << "one page comparing them, their timelines on one time axis (docs/report.md).\n\n"
          << "Example: simulate --policy adaptive -n 200 --format json -o r.json --timeline r.jsonl\n"
          << "         " << program << " r.json --timeline r.jsonl -o r.html\n"
          << "         " << program << " restart.json elastic.json -o compare.html\n\n"
          << options << "\n";
      return 0;
    }
    if (!vm.count("result"))
      throw InputError("expected RESULT: a `simulate --format json` output or a sweep directory");
    if (!vm.count("output")) throw InputError("--output: expected the HTML file to write (-o report.html)");
    check_output_option(vm);
    const std::vector<std::string> timelines =
        vm.count("timeline") ? vm["timeline"].as<std::vector<std::string>>() : std::vector<std::string>();
    const std::string html = report_page_html(vm["result"].as<std::vector<std::string>>(), timelines);
    const std::string output = vm["output"].as<std::string>();
    write_file_atomically(output, html);
    std::cerr << program << ": wrote " << output << "\n";
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim

// `spotsim trace convert`: any supported format -> the spotsim trace format (v2 with regions, else v1).
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/options/command_line.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/trace_subcommands.hpp"
#include "traces/importers/cloud_geography.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description convert_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "output,o", po::value<std::string>(), "write the trace to this file (atomically) instead of stdout");
  po::options_description meta("Trace metadata");
  meta.add_options()("name", po::value<std::string>(), "trace name [default: from the inputs]")(
      "description", po::value<std::string>(), "one-line description: what the trace is good for")(
      "source", po::value<std::string>(), "provenance: where the data comes from (paper, repository, command)")(
      "date", po::value<std::string>(), "provenance: when the data was recorded or retrieved")(
      "license", po::value<std::string>(), "provenance: the data's licence")(
      "notes", po::value<std::string>(), "provenance: anything else a user should know")(
      "geography", po::value<std::string>(),
      "aws | gcp: place each zone in its region and continent from its name (us-east-1a -> us-east-1) and price "
      "moves between regions with the shipped egress table: writes a v2 trace");
  po::options_description all;
  all.add(general).add(input_options()).add(offer_options()).add(meta);
  return all;
}

int convert(int argc, const char* const* argv, const std::string& program) {
  const auto options = convert_options();
  const auto vm = parse_trace_options(argc, argv, options, true);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " [options] INPUT...\n\n"
              << "Convert recorded spot availability, price, preemption or lifetime data to the spotsim trace format\n"
              << "(v2 when the zones have regions, else v1). Several inputs become the zones of one trace (e.g.\n"
              << "us-west-2a and us-west-2b); a multi-region folder is one input (--from skynomad-gcp DIR).\n\n"
              << "Example: " << program
              << " us-west-2a_v100_1.json us-west-2b_v100_1.json --instance-type p3.2xlarge \\\n"
              << "           --on-demand-price 3.06 --spot-price 0.918 -o aws-us-west-2-v100.json\n"
              << options << "\n";
    return 0;
  }
  check_output_option(vm);
  ImportedTrace imported = import_inputs(vm);
  SpotMarket& market = imported.market;
  if (imported.format != "spotsim" && !imported.records_on_demand_prices && !vm.count("on-demand-price")) {
    throw InputError("--on-demand-price: required when converting " + imported.format +
                     " data (it records no on-demand price)");
  }
  if (!imported.records_spot_prices && !vm.count("spot-price")) {
    throw InputError("--spot-price: required when converting " + imported.format + " data (it records no spot price)");
  }
  if (vm.count("geography")) place_zones_by_name(market, vm["geography"].as<std::string>(), "--geography");
  if (vm.count("name")) {
    market.name = vm["name"].as<std::string>();
    require_utf8(market.name, "--name");
  }
  if (vm.count("description")) market.description = vm["description"].as<std::string>();
  if (vm.count("source")) market.provenance.source = vm["source"].as<std::string>();
  if (market.provenance.source.empty())
    market.provenance.source = "spotsim trace convert (" + imported.format + " input)";
  if (vm.count("date")) market.provenance.date = vm["date"].as<std::string>();
  if (vm.count("license")) market.provenance.license = vm["license"].as<std::string>();
  if (vm.count("notes")) {
    const std::string extra = market.provenance.notes;
    market.provenance.notes = vm["notes"].as<std::string>() + (extra.empty() ? "" : " " + extra);
  }
  const nlohmann::json doc = trace_to_json(market);
  parse_trace(doc, "converted trace");  // the output must read back; a failure here is a bug, reported as such
  emit(vm, format_trace_document(doc), program);
  return 0;
}

}  // namespace

boost::program_options::options_description trace_convert_command_options() { return convert_options(); }

int trace_convert_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace convert", convert, argc, argv);
}

}  // namespace spotsim

// `spotsim trace inspect`: what a trace holds, in numbers.
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/errors.hpp"
#include "tools/command_line.hpp"
#include "tools/trace_subcommands.hpp"
#include "traces/fit/trace_summary.hpp"
#include "sim/text_escape.hpp"
#include "sim/text_format.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description inspect_options() {
  po::options_description general("General");
  general.add_options()
      ("help,h", "show this help and exit")
      ("nodes", po::value<std::string>()->default_value("1"),
       "instances a job needs (1 to 100000): availability counts only when at least this many")
      ("format,f", po::value<std::string>(), "table | json [default: table, or json for an --output ending in .json]")
      ("output,o", po::value<std::string>(), "write the summary to this file (atomically) instead of stdout");
  po::options_description all;
  all.add(general).add(input_options()).add(offer_options());
  return all;
}

nlohmann::json summary_json(const TraceSummary& s, const std::string& format) {
  nlohmann::json zones = nlohmann::json::array();
  for (const auto& z : s.zones) {
    zones.push_back({{"name", z.name},
                     {"instance_type", z.instance_type},
                     {"preemption_source", z.preemption_source},
                     {"availability_fraction", z.availability_fraction},
                     {"preemptions_per_instance_hour", z.preemptions_per_instance_hour},
                     {"uptimes", z.uptimes},
                     {"mean_uptime_hours", z.mean_uptime_hours},
                     {"median_uptime_hours", z.median_uptime_hours},
                     {"on_demand_price_per_hour", z.on_demand_price_per_hour},
                     {"spot_price_min", z.spot_price_min},
                     {"spot_price_max", z.spot_price_max},
                     {"spot_price_mean", z.spot_price_mean}});
  }
  return {{"name", s.name}, {"input_format", format}, {"span_hours", s.span_hours}, {"nodes", s.nodes}, {"zones", zones}};
}

std::string summary_table(const TraceSummary& s, const std::string& format) {
  std::ostringstream out;
  out << "trace " << escape_control_characters(s.name) << " (" << format << "), span "
      << (s.span_hours > 0.0 ? format_fixed(s.span_hours, 2) + " h" : std::string("unbounded (lifetime model)"))
      << ", availability counted at >= " << s.nodes << " instance(s)\n";
  out << "zone                 preemptions from            avail  preempt/inst-h  uptimes  mean up h  median up h  spot $/h min..max (mean)    on-demand $/h\n";
  for (const auto& z : s.zones) {
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-27s %6.3f %15.4f %8zu %10.2f %12.2f  %8.4f..%-8.4f (%8.4f) %10.4f\n",
                  escape_control_characters(z.name).c_str(), z.preemption_source.c_str(), z.availability_fraction, z.preemptions_per_instance_hour,
                  z.uptimes, z.mean_uptime_hours, z.median_uptime_hours, z.spot_price_min, z.spot_price_max,
                  z.spot_price_mean, z.on_demand_price_per_hour);
    out << line;
  }
  return out.str();
}

int inspect(int argc, const char* const* argv, const std::string& program) {
  const auto options = inspect_options();
  const auto vm = parse_trace_options(argc, argv, options, true);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " [options] INPUT...\n\n"
              << "Summarise a trace in any supported format (converted in memory): its span, and per zone the share of\n"
              << "time spot is available, preemptions per instance-hour, mean and median uptime and the price range.\n\n"
              << "Example: " << program << " traces/library/aws-us-west-2-v100.json\n"
              << options << "\n";
    return 0;
  }
  const int nodes = int_count_option(vm, "nodes", 1, static_cast<int>(kMaxNodes));
  const std::string format = table_or_json(vm);
  const ImportedTrace imported = import_inputs(vm);
  const TraceSummary summary = summarize_trace(imported.market, nodes);
  emit(vm, format == "json" ? summary_json(summary, imported.format).dump(2) + "\n" : summary_table(summary, imported.format),
       program);
  return 0;
}

}  // namespace

int trace_inspect_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace inspect", inspect, argc, argv);
}

}  // namespace spotsim

// `spotsim trace inspect`: what a trace holds, in numbers.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/options/command_line.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"
#include "cli/command_options.hpp"
#include "cli/trace_subcommands.hpp"
#include "traces/fit/trace_summary.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description inspect_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "nodes", po::value<std::string>()->default_value("1"),
      "instances a job needs (1 to 100000): availability counts only when at least this many")(
      "format,f", po::value<std::string>(), "table | json [default: table, or json for an --output ending in .json]")(
      "output,o", po::value<std::string>(), "write the summary to this file (atomically) instead of stdout");
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
  return {
      {"name", s.name}, {"input_format", format}, {"span_hours", s.span_hours}, {"nodes", s.nodes}, {"zones", zones}};
}

// One entry per region of a v2 trace (none for a v1 trace): continent, zones, and the range of egress prices
// out of the region. The zones' rows above stay as they are for v1 traces.
struct RegionSummary {
  std::string name;
  std::string continent;
  std::vector<std::string> zones;
  double egress_min = 0.0, egress_max = 0.0;
};

std::vector<RegionSummary> summarize_regions(const SpotMarket& market) {
  std::vector<RegionSummary> regions;
  for (const std::string& name : market_regions(market)) {
    if (name.empty()) continue;
    RegionSummary r{name, "", {}, 0.0, 0.0};
    bool first = true;
    for (const EgressPrice& p : market.migration.egress) {
      if (p.from != name) continue;
      r.egress_min = first ? p.usd_per_gb : std::min(r.egress_min, p.usd_per_gb);
      r.egress_max = first ? p.usd_per_gb : std::max(r.egress_max, p.usd_per_gb);
      first = false;
    }
    for (const Zone& z : market.zones) {
      if (z.region == name) r.continent = z.continent, r.zones.push_back(z.name);
    }
    regions.push_back(std::move(r));
  }
  return regions;
}

nlohmann::json regions_json(const SpotMarket& market) {
  nlohmann::json regions = nlohmann::json::array();
  for (const RegionSummary& r : summarize_regions(market)) {
    regions.push_back({{"name", r.name},
                       {"continent", r.continent},
                       {"zones", r.zones},
                       {"egress_out_usd_per_gb_min", r.egress_min},
                       {"egress_out_usd_per_gb_max", r.egress_max}});
  }
  return regions;
}

std::string regions_table(const SpotMarket& market) {
  const auto regions = summarize_regions(market);
  if (regions.empty()) return "";
  std::ostringstream out;
  out << "\n"
      << regions.size() << " region(s); transfer " << format_fixed(market.migration.same_continent_gbps, 2)
      << " Gbit/s within a continent, " << format_fixed(market.migration.cross_continent_gbps, 2) << " Gbit/s across\n";
  out << "region               continent        zones  egress out $/GB min..max\n";
  for (const RegionSummary& r : regions) {
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-16s %5zu  %6.4f..%-6.4f\n", escape_control_characters(r.name).c_str(),
                  escape_control_characters(r.continent).c_str(), r.zones.size(), r.egress_min, r.egress_max);
    out << line;
  }
  return out.str();
}

std::string summary_table(const TraceSummary& s, const std::string& format) {
  std::ostringstream out;
  out << "trace " << escape_control_characters(s.name) << " (" << format << "), span "
      << (s.span_hours > 0.0 ? format_fixed(s.span_hours, 2) + " h" : std::string("unbounded (lifetime model)"))
      << ", availability counted at >= " << s.nodes << " instance(s)\n";
  out << "zone                 preemptions from            avail  preempt/inst-h  uptimes  mean up h  median up h  "
         "spot $/h min..max (mean)    on-demand $/h\n";
  for (const auto& z : s.zones) {
    char line[512];
    std::snprintf(line, sizeof line, "%-20s %-27s %6.3f %15.4f %8zu %10.2f %12.2f  %8.4f..%-8.4f (%8.4f) %10.4f\n",
                  escape_control_characters(z.name).c_str(), z.preemption_source.c_str(), z.availability_fraction,
                  z.preemptions_per_instance_hour, z.uptimes, z.mean_uptime_hours, z.median_uptime_hours,
                  z.spot_price_min, z.spot_price_max, z.spot_price_mean, z.on_demand_price_per_hour);
    out << line;
  }
  return out.str();
}

int inspect(int argc, const char* const* argv, const std::string& program) {
  const auto options = inspect_options();
  const auto vm = parse_trace_options(argc, argv, options, true);
  if (vm.count("help")) {
    std::cout
        << "Usage: " << program << " [options] INPUT...\n\n"
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
  std::string text;
  if (format == "json") {
    nlohmann::json doc = summary_json(summary, imported.format);
    doc["regions"] = regions_json(imported.market);
    text = json_text(doc, 2) + "\n";
  } else {
    text = summary_table(summary, imported.format) + regions_table(imported.market);
  }
  emit(vm, text, program);
  return 0;
}

}  // namespace

boost::program_options::options_description trace_inspect_command_options() { return inspect_options(); }

int trace_inspect_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace inspect", inspect, argc, argv);
}

}  // namespace spotsim

// `spotsim trace fit`: exponential, Weibull and bathtub lifetimes fitted to recorded lifetimes, side by side.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include "sim/errors.hpp"
#include "tools/command_line.hpp"
#include "tools/trace_subcommands.hpp"
#include "traces/fit/lifetime_model_fits.hpp"
#include "traces/fit/uptime_records.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description fit_options() {
  po::options_description general("General");
  general.add_options()
      ("help,h", "show this help and exit")
      ("method,m", po::value<std::string>()->default_value("all"),
       "lsq-ecdf (least squares on the ECDF of preempted records, as Kadupitiya et al.), lsq-km (least squares on "
       "1 - Kaplan-Meier, censoring-aware), mle (censored maximum likelihood), or all")
      ("group-by", po::value<std::string>()->default_value("none"), "none | zone | machine-type | zone,machine-type")
      ("min-preempted", po::value<std::string>()->default_value("1"), "skip groups with fewer preempted records than this")
      ("nodes", po::value<std::string>()->default_value("1"),
       "availability recordings: an uptime is a stretch with at least this many instances obtainable")
      ("format,f", po::value<std::string>(), "table | json [default: table, or json for an --output ending in .json]")
      ("output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout");
  po::options_description all;
  all.add(general).add(input_options());
  return all;
}

using Groups = std::map<std::string, std::vector<LifetimeRecord>>;

Groups group_records(const ImportedTrace& imported, const std::string& group_by, int nodes) {
  std::vector<LabeledLifetime> labeled = imported.lifetimes;
  if (labeled.empty()) {
    for (const Zone& zone : imported.market.zones) {
      for (const auto& r : uptime_records(zone, imported.market.span, nodes)) labeled.push_back({r, zone.name, zone.instance_type});
    }
  }
  Groups groups;
  for (const auto& l : labeled) {
    std::string key = "all";
    if (group_by == "zone") key = l.zone;
    else if (group_by == "machine-type") key = l.machine_type.empty() ? "(unknown)" : l.machine_type;
    else if (group_by == "zone,machine-type") key = l.zone + "," + (l.machine_type.empty() ? "(unknown)" : l.machine_type);
    groups[key].push_back(l.record);
  }
  return groups;
}

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json report_json(const std::string& group, const std::vector<LifetimeFitReport>& reports) {
  nlohmann::json fits = nlohmann::json::array();
  for (const auto& report : reports) {
    for (const auto& fit : report.fits) {
      nlohmann::json parameters = nlohmann::json::object();
      for (const auto& [name, value] : fit.parameters) parameters[name] = value;
      fits.push_back({{"method", fit_method_name(report.method)},
                      {"model", fit.model},
                      {"parameters", parameters},
                      {"r_squared", number_or_null(fit.r_squared)},
                      {"ks_distance", number_or_null(fit.ks_distance)},
                      {"log_likelihood", number_or_null(fit.log_likelihood)},
                      {"converged", fit.converged},
                      {"lifetime", lifetime_to_json(*fit.distribution)}});
    }
  }
  const auto& first = reports.front();
  return {{"group", group}, {"records", first.records}, {"preempted", first.preempted},
          {"longest_hours", first.longest_hours}, {"fits", fits}};
}

std::string report_table(const std::string& group, const std::vector<LifetimeFitReport>& reports) {
  std::ostringstream out;
  const auto& first = reports.front();
  out << "group " << group << ": " << first.records << " records, " << first.preempted << " preempted, "
      << first.records - first.preempted << " censored, longest " << first.longest_hours << " h\n";
  out << "  method    model        R^2      KS      log L      parameters\n";
  for (const auto& report : reports) {
    for (const auto& fit : report.fits) {
      std::string params;
      for (const auto& [name, value] : fit.parameters) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%s=%.4g ", name.c_str(), value);
        params += buffer;
      }
      char line[512];
      std::snprintf(line, sizeof line, "  %-9s %-11s %7.4f %7.4f %10.1f  %s%s\n", fit_method_name(report.method).c_str(),
                    fit.model.c_str(), fit.r_squared, fit.ks_distance, fit.log_likelihood, params.c_str(),
                    fit.converged ? "" : "(not converged)");
      out << line;
    }
  }
  return out.str();
}

int fit(int argc, const char* const* argv, const std::string& program) {
  const auto options = fit_options();
  const auto vm = parse_trace_options(argc, argv, options, true);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " [options] INPUT...\n\n"
              << "Fit exponential, Weibull and bathtub (Kadupitiya et al., HPDC'20) lifetime models to recorded\n"
              << "lifetimes: per-VM records (user-stopped VMs are right-censored), node event logs, or the uptimes of an\n"
              << "availability recording. Reports the parameters, R^2 and the Kolmogorov-Smirnov distance of each.\n\n"
              << "Example: " << program << " lifetimes.csv --group-by zone --method mle\n"
              << options << "\n";
    return 0;
  }
  std::vector<FitMethod> methods;
  const std::string method = vm["method"].as<std::string>();
  if (method == "all") {
    methods = {FitMethod::kLeastSquaresEcdf, FitMethod::kLeastSquaresKaplanMeier, FitMethod::kMaximumLikelihood};
  } else if (const auto m = parse_fit_method(method)) {
    methods = {*m};
  } else {
    throw InputError("--method '" + method + "': expected lsq-ecdf, lsq-km, mle or all");
  }
  const std::string group_by = vm["group-by"].as<std::string>();
  if (group_by != "none" && group_by != "zone" && group_by != "machine-type" && group_by != "zone,machine-type") {
    throw InputError("--group-by '" + group_by + "': expected none, zone, machine-type or zone,machine-type");
  }
  const int nodes = int_count_option(vm, "nodes", 1, static_cast<int>(kMaxNodes));
  const int min_preempted = int_count_option(vm, "min-preempted", 0, 1'000'000'000);
  const std::string format = table_or_json(vm);
  const ImportedTrace imported = import_inputs(vm);
  const Groups groups = group_records(imported, group_by, nodes);
  nlohmann::json json_groups = nlohmann::json::array();
  std::string table;
  for (const auto& [group, records] : groups) {
    const auto preempted = std::count_if(records.begin(), records.end(), [](const auto& r) { return r.preempted; });
    if (preempted < std::max(1, min_preempted)) {
      table += "group " + group + ": skipped (" + std::to_string(preempted) + " preempted records)\n";
      continue;
    }
    std::vector<LifetimeFitReport> reports;
    for (FitMethod m : methods) reports.push_back(fit_lifetime_models(records, m));
    json_groups.push_back(report_json(group, reports));
    table += report_table(group, reports);
  }
  if (json_groups.empty()) throw InputError("no group has enough preempted records to fit (see --min-preempted)");
  const nlohmann::json doc = {{"input_format", imported.format}, {"group_by", group_by}, {"groups", json_groups}};
  emit(vm, format == "json" ? doc.dump(2) + "\n" : table, program);
  return 0;
}

}  // namespace

int trace_fit_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace fit", fit, argc, argv);
}

}  // namespace spotsim

// `spotsim trace fit`: exponential, Weibull and bathtub lifetimes fitted to recorded lifetimes, side by side.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/options/command_line.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "cli/command_options.hpp"
#include "cli/terminal_progress.hpp"
#include "cli/trace_subcommands.hpp"
#include "traces/fit/lifetime_model_fits.hpp"
#include "traces/fit/parametric_fits.hpp"
#include "traces/fit/uptime_records.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description fit_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "method,m", po::value<std::string>()->default_value("all"),
      "lsq-ecdf (least squares on the ECDF of preempted records, as Kadupitiya et al.), lsq-km (least squares on "
      "1 - Kaplan-Meier, censoring-aware), mle (censored maximum likelihood), or all")(
      "group-by", po::value<std::string>()->default_value("none"), "none | zone | machine-type | zone,machine-type")(
      "min-preempted", po::value<std::string>()->default_value("1"),
      "skip groups with fewer preempted records than this")(
      "nodes", po::value<std::string>()->default_value("1"),
      "availability recordings: an uptime is a stretch with at least this many instances obtainable")(
      "format,f", po::value<std::string>(), "table | json [default: table, or json for an --output ending in .json]")(
      "output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout")(
      "quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)");
  po::options_description all;
  all.add(general).add(input_options());
  return all;
}

// One line on stderr while a long fit runs, only on a terminal, at most five a second (nothing for a fit that
// ends within kProgressDelay), erased before the result is written. The other commands' line
// (cli/terminal_progress.hpp) counts units of work; a fit has stages of unknown length instead, so this one names
// the stage, its share done and the time the stage still needs at its pace so far.
class FitProgressLine {
 public:
  explicit FitProgressLine(bool wanted) : enabled_(progress_wanted(!wanted)), start_(now()), last_(start_) {}
  ~FitProgressLine() { clear(); }
  FitProgressLine(const FitProgressLine&) = delete;
  FitProgressLine& operator=(const FitProgressLine&) = delete;

  // A callback for fit_lifetime_models that prefixes the group being fitted.
  FitProgress for_group(const std::string& group, std::size_t index, std::size_t count) {
    if (!enabled_) return {};
    return [this, prefix = "group " + group + " (" + std::to_string(index + 1) + "/" + std::to_string(count) + "): "](
               const std::string& step, double fraction) { show(prefix + step, fraction); };
  }

  void clear() {
    if (shown_) std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  void show(const std::string& step, double fraction) {
    const double t = now();
    if (step != step_) {
      step_ = step;
      step_start_ = t;
    }
    if (t - start_ < kProgressDelay || t - last_ < kProgressInterval) return;
    last_ = t;
    fraction = std::clamp(fraction, 0.0, 1.0);
    char percent[16];
    std::snprintf(percent, sizeof percent, ": %.0f%%", 100.0 * fraction);
    const double elapsed = t - step_start_;
    const std::string eta = fraction > 0.0 ? format_eta(elapsed * (1.0 - fraction) / fraction) : std::string("?");
    std::cerr << "\rspotsim trace fit: fitting " << step << percent << ", ETA " << eta << "\033[K" << std::flush;
    shown_ = true;
  }

  bool enabled_;
  bool shown_ = false;
  double start_, last_;
  std::string step_;
  double step_start_ = 0.0;
};

using Groups = std::map<std::string, std::vector<LifetimeRecord>>;

Groups group_records(const ImportedTrace& imported, const std::string& group_by, int nodes) {
  std::vector<LabeledLifetime> uptimes;  // only for recordings without lifetime records (no copy of those)
  if (imported.lifetimes.empty()) {
    for (const Zone& zone : imported.market.zones) {
      for (const auto& r : uptime_records(zone, imported.market.span, nodes))
        uptimes.push_back({r, zone.name, zone.instance_type});
    }
  }
  const std::vector<LabeledLifetime>& labeled = imported.lifetimes.empty() ? uptimes : imported.lifetimes;
  Groups groups;
  for (const auto& l : labeled) {
    std::string key = "all";
    if (group_by == "zone")
      key = l.zone;
    else if (group_by == "machine-type")
      key = l.machine_type.empty() ? "(unknown)" : l.machine_type;
    else if (group_by == "zone,machine-type")
      key = l.zone + "," + (l.machine_type.empty() ? "(unknown)" : l.machine_type);
    groups[key].push_back(l.record);
  }
  return groups;
}

// A fit needs two distinct preempted lifetimes the fits can tell from 0 (longer than kShortestLifetimeHours): with
// a single one, least squares has one point to match and every model "fits" it with meaningless parameters.
constexpr std::size_t kMinDistinctPreemptions = 2;

// Why a group is not fitted, or "" to fit it.
std::string reason_to_skip(const std::vector<LifetimeRecord>& records, int min_preempted) {
  std::vector<double> preempted;
  for (const auto& r : records) {
    if (r.preempted) preempted.push_back(r.hours);
  }
  if (preempted.size() < static_cast<std::size_t>(std::max(1, min_preempted))) {
    return std::to_string(preempted.size()) + " preempted records; --min-preempted is " +
           std::to_string(std::max(1, min_preempted));
  }
  std::sort(preempted.begin(), preempted.end());
  preempted.erase(std::unique(preempted.begin(), preempted.end()), preempted.end());
  const auto usable = static_cast<std::size_t>(
      std::count_if(preempted.begin(), preempted.end(), [](double h) { return h > kShortestLifetimeHours; }));
  if (usable < kMinDistinctPreemptions) {
    return std::to_string(usable) + " distinct preempted lifetime" + (usable == 1 ? "" : "s") +
           " longer than 1e-9 h; a fit needs at least " + std::to_string(kMinDistinctPreemptions);
  }
  return "";
}

// "a.csv" or "a.csv, b.csv": where an error came from.
std::string inputs_named(const po::variables_map& vm) {
  std::string names;
  for (const auto& input : vm["input"].as<std::vector<std::string>>()) names += (names.empty() ? "" : ", ") + input;
  return names;
}

// A directory would otherwise read as empty text and fail format detection with a vague message.
void reject_directories(const po::variables_map& vm) {
  if (!vm.count("input")) return;  // import_inputs says "no input file given"
  for (const auto& input : vm["input"].as<std::vector<std::string>>()) {
    std::error_code ec;
    if (std::filesystem::is_directory(input, ec)) {
      throw InputError(input + ": is a directory; expected a file of lifetimes or a trace (see --from)");
    }
  }
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
  return {{"group", group},
          {"records", first.records},
          {"preempted", first.preempted},
          {"longest_hours", first.longest_hours},
          {"fits", fits}};
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
      std::snprintf(line, sizeof line, "  %-9s %-11s %7.4f %7.4f %10.1f  %s%s\n",
                    fit_method_name(report.method).c_str(), fit.model.c_str(), fit.r_squared, fit.ks_distance,
                    fit.log_likelihood, params.c_str(), fit.converged ? "" : "(not converged)");
      out << line;
    }
  }
  return out.str();
}

int fit(int argc, const char* const* argv, const std::string& program) {
  const auto options = fit_options();
  const auto vm = parse_trace_options(argc, argv, options, true);
  if (vm.count("help")) {
    std::cout
        << "Usage: " << program << " [options] INPUT...\n\n"
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
  reject_directories(vm);
  const ImportedTrace imported = import_inputs(vm);
  const Groups groups = group_records(imported, group_by, nodes);
  if (groups.empty()) {
    throw InputError(inputs_named(vm) +
                     ": no lifetimes to fit; expected lifetime records, node events, recorded "
                     "preemptions or an availability recording (a trace's lifetime model is not data)");
  }
  nlohmann::json json_groups = nlohmann::json::array();
  std::string table;
  std::vector<std::string> skipped;
  FitProgressLine progress(!vm.count("quiet"));
  std::size_t index = 0;
  for (const auto& [group, records] : groups) {
    const std::string reason = reason_to_skip(records, min_preempted);
    if (!reason.empty()) {
      table += "group " + group + ": skipped (" + reason + ")\n";
      skipped.push_back("group " + group + ": " + reason);
      ++index;
      continue;
    }
    std::vector<LifetimeFitReport> reports;
    try {
      reports = fit_lifetime_models(records, methods, progress.for_group(group, index++, groups.size()));
    } catch (const InputError& e) {
      throw InputError(inputs_named(vm) + ", group " + group + ": " + e.what());
    }
    json_groups.push_back(report_json(group, reports));
    table += report_table(group, reports);
  }
  progress.clear();
  if (json_groups.empty()) {
    std::string reasons;
    for (std::size_t i = 0; i < skipped.size() && i < 3; ++i) reasons += (i ? "; " : "") + skipped[i];
    if (skipped.size() > 3) reasons += "; and " + std::to_string(skipped.size() - 3) + " more";
    throw InputError(inputs_named(vm) + ": no group can be fitted (" + reasons + ")");
  }
  const nlohmann::json doc = {{"input_format", imported.format}, {"group_by", group_by}, {"groups", json_groups}};
  emit(vm, format == "json" ? json_text(doc, 2) + "\n" : table, program);
  return 0;
}

}  // namespace

boost::program_options::options_description trace_fit_command_options() { return fit_options(); }

int trace_fit_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace fit", fit, argc, argv);
}

}  // namespace spotsim

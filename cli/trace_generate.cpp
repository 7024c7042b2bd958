// `spotsim trace generate`: a synthetic recorded trace from a lifetime model and a seed.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/options/command_line.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "cli/command_options.hpp"
#include "cli/trace_subcommands.hpp"
#include "traces/importers/synthetic_trace_generator.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description generate_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "lifetime,l", po::value<std::string>(),
      "lifetime model MODEL:key=value,... with the fields of a trace's lifetime object, e.g. "
      "exponential:mean_hours=6, weibull:shape=0.8,scale_hours=5, "
      "bathtub:A=0.42,tau1_hours=0.975,tau2_hours=0.372,b_hours=24.33,cap_hours=25")(
      "lifetime-from", po::value<std::string>(),
      "or: take the lifetime model of the first zone of this trace (a path or shipped name)")(
      "span", po::value<std::string>()->default_value("14d"), "length of the generated recording")(
      "instances", po::value<std::string>()->default_value("1"),
      "spot instances recorded (1 to 100000); availability = how many are up")(
      "outage-mean", po::value<std::string>()->default_value("30m"),
      "mean time until capacity returns after a preemption (exponential); 0s records preemption times instead")(
      "seed", po::value<std::string>()->default_value("1"), "seed, 0 to 2^64-1; the same seed gives the same trace")(
      "name", po::value<std::string>(), "trace name [default: synthetic]")(
      "output,o", po::value<std::string>(), "write the trace to this file (atomically) instead of stdout");
  po::options_description all;
  all.add(general).add(offer_options());
  return all;
}

LifetimeDistribution lifetime_from_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  nlohmann::json object = {{"model", spec.substr(0, colon)}};
  if (colon != std::string::npos) {
    std::string rest = spec.substr(colon + 1);
    std::size_t start = 0;
    while (start <= rest.size()) {
      const auto comma = rest.find(',', start);
      const std::string pair = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const auto eq = pair.find('=');
      if (eq == std::string::npos) throw InputError("--lifetime: expected key=value, got '" + pair + "'");
      try {
        std::size_t used = 0;
        const double value = std::stod(pair.substr(eq + 1), &used);
        if (used != pair.size() - eq - 1) throw std::invalid_argument("trailing text");
        object[pair.substr(0, eq)] = value;
      } catch (const std::exception&) {
        throw InputError("--lifetime: expected a number for '" + pair.substr(0, eq) + "', got '" + pair.substr(eq + 1) +
                         "'");
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return parse_lifetime(object, "--lifetime", "lifetime");
}

int generate(int argc, const char* const* argv, const std::string& program) {
  const auto options = generate_options();
  const auto vm = parse_trace_options(argc, argv, options, false);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " (--lifetime MODEL:key=value,... | --lifetime-from TRACE) [options]\n\n"
              << "Generate a synthetic recorded trace: instances alternate between lifetimes drawn from the model and\n"
              << "exponential outages; the trace records how many are available (or, with --outage-mean 0s, the\n"
              << "preemption times). The same seed always gives the same trace.\n\n"
              << "Example: " << program
              << " --lifetime-from us-west1 --span 7d --seed 3 --on-demand-price 3.67 --spot-price 1.93\n"
              << options << "\n";
    return 0;
  }
  check_output_option(vm);
  if (vm.count("lifetime") == vm.count("lifetime-from"))
    throw InputError("give exactly one of --lifetime or --lifetime-from");
  std::optional<LifetimeDistribution> lifetime;
  if (vm.count("lifetime")) {
    lifetime = lifetime_from_spec(vm["lifetime"].as<std::string>());
  } else {
    const std::string path = locate_trace(vm["lifetime-from"].as<std::string>(), "--lifetime-from");
    const SpotMarket source = read_trace_file(path);
    if (!source.zones.front().spot.lifetime) throw InputError(path + ": its first zone has no lifetime model");
    lifetime = *source.zones.front().spot.lifetime;
  }
  GeneratorSettings settings{*lifetime};
  settings.span = parse_duration(vm["span"].as<std::string>(), "--span");
  settings.instances = int_count_option(vm, "instances", 1, 100000);
  settings.outage_mean = parse_duration(vm["outage-mean"].as<std::string>(), "--outage-mean");
  settings.seed = seed_option(vm);
  ImportOptions offer = import_options_from(vm);
  if (!vm.count("on-demand-price") || !vm.count("spot-price")) {
    throw InputError("--on-demand-price and --spot-price: required (a synthetic trace has no recorded prices)");
  }
  ImportedTrace trace = generate_synthetic_trace(settings, offer);
  SpotMarket& market = trace.market;
  market.name = vm.count("name") ? vm["name"].as<std::string>() : "synthetic";
  market.description = "Synthetic trace: " + lifetime->name() + " lifetimes, " + std::to_string(settings.instances) +
                       " instance(s), mean outage " + format_duration(settings.outage_mean) + ", seed " +
                       std::to_string(settings.seed) + ".";
  market.provenance.source = "spotsim trace generate (synthetic)";
  market.provenance.notes = "Lifetime model: " + json_text(lifetime_to_json(*lifetime));
  const nlohmann::json doc = trace_to_json(market);
  parse_trace(doc, "generated trace");
  emit(vm, json_text(doc) + "\n", program);
  return 0;
}

}  // namespace

boost::program_options::options_description trace_generate_command_options() { return generate_options(); }

int trace_generate_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace generate", generate, argc, argv);
}

}  // namespace spotsim

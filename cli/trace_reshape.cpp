// `spotsim trace reshape` (alias `reprice`): a spotsim trace re-priced, re-shaped or renamed, the change recorded in
// its provenance (traces/trace_reshape.hpp holds the rules; this file reads the options and writes the trace).
#include "traces/trace_reshape.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/options/command_line.hpp"
#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/trace_subcommands.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description reshape_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "output,o", po::value<std::string>(), "write the trace to this file (atomically) instead of stdout")(
      "name", po::value<std::string>(), "the new trace's name [default: the input's]")(
      "description", po::value<std::string>(), "the new trace's one-line description [default: the input's]");
  po::options_description prices("Prices (USD per instance-hour)");
  prices.add_options()("price-scale", po::value<double>(),
                       "multiply every price, on-demand and spot (recorded series included), by this factor")(
      "on-demand-price", po::value<std::vector<std::string>>()->composing(),
      "[ZONE=]USD: the on-demand price of one zone, or of every zone (repeatable)")(
      "spot-price", po::value<std::vector<std::string>>()->composing(),
      "[ZONE=]USD: a constant spot price for one zone or every zone, replacing a recorded series (repeatable)");
  po::options_description shape("Instance shape");
  shape.add_options()("instance-type", po::value<std::string>(), "the zones' instance type, e.g. a2-highgpu-8g")(
      "gpu", po::value<std::string>(), "the zones' GPU model (needs --availability same and both prices)")(
      "gpus-per-instance", po::value<int>(), "GPUs per instance, 1 to 1024 (needs --availability and a price rule)")(
      "availability", po::value<std::string>(),
      "how recorded spot carries over to the new shape: same (ASSUMPTION: obtainable and preempted as recorded) | "
      "pooled (the recorded count regrouped: floor(count x old GPUs / new GPUs); counts only, same GPU)")(
      "prices", po::value<std::string>(), "per-gpu: with --gpus-per-instance, scale both prices by new/old GPUs");
  po::options_description names("Names");
  names.add_options()("rename", po::value<std::vector<std::string>>()->composing(),
                      "OLD=NEW: rename a zone, or a region (its zones and egress prices) (repeatable)")(
      "append-as", po::value<std::string>(),
      "SUFFIX: keep the original zones and add the reshaped ones beside them, named zone + SUFFIX (e.g. -8g): a "
      "trace of two shapes, each job of a campaign on its own");
  po::options_description all;
  all.add(general).add(prices).add(shape).add(names);
  return all;
}

ZonePrice zone_price(const std::string& text, const std::string& option) {
  const std::size_t eq = text.rfind('=');
  ZonePrice p;
  std::string number = text;
  if (eq != std::string::npos) {
    p.zone = text.substr(0, eq);
    number = text.substr(eq + 1);
    if (p.zone.empty()) throw InputError(option + " '" + text + "': expected [ZONE=]USD, the zone's name before '='");
  }
  try {
    std::size_t used = 0;
    p.usd_per_hour = std::stod(number, &used);
    if (used != number.size()) throw std::invalid_argument(number);
  } catch (const std::exception&) {
    throw InputError(option + " '" + text + "': expected [ZONE=]USD, e.g. 3.06 or us-east4-a=3.06");
  }
  return p;
}

std::vector<ZonePrice> zone_prices(const po::variables_map& vm, const char* option) {
  std::vector<ZonePrice> out;
  if (!vm.count(option)) return out;
  for (const std::string& text : vm[option].as<std::vector<std::string>>()) {
    require_utf8(text, std::string("--") + option);
    out.push_back(zone_price(text, std::string("--") + option));
  }
  return out;
}

ReshapeRequest reshape_request_from(const po::variables_map& vm) {
  ReshapeRequest r;
  if (vm.count("instance-type")) r.instance_type = vm["instance-type"].as<std::string>();
  if (vm.count("gpu")) r.gpu = vm["gpu"].as<std::string>();
  for (const auto* text : {&r.instance_type, &r.gpu}) {
    if (*text) require_utf8(**text, "--instance-type/--gpu");
  }
  if (vm.count("gpus-per-instance")) r.gpus_per_instance = vm["gpus-per-instance"].as<int>();
  if (vm.count("availability")) {
    const std::string rule = vm["availability"].as<std::string>();
    if (rule == "same") {
      r.availability = AvailabilityRule::kSame;
    } else if (rule == "pooled") {
      r.availability = AvailabilityRule::kPooled;
    } else {
      throw InputError("--availability '" + rule + "': expected same or pooled");
    }
  }
  if (vm.count("prices")) {
    const std::string rule = vm["prices"].as<std::string>();
    if (rule != "per-gpu") throw InputError("--prices '" + rule + "': expected per-gpu");
    r.prices_per_gpu = true;
  }
  if (vm.count("price-scale")) r.price_scale = vm["price-scale"].as<double>();
  if (vm.count("append-as")) {
    r.append_suffix = vm["append-as"].as<std::string>();
    require_utf8(r.append_suffix, "--append-as");
    if (r.append_suffix.empty()) throw InputError("--append-as: expected a suffix such as -8g, got ''");
  }
  r.on_demand = zone_prices(vm, "on-demand-price");
  r.spot = zone_prices(vm, "spot-price");
  if (vm.count("rename")) {
    for (const std::string& text : vm["rename"].as<std::vector<std::string>>()) {
      require_utf8(text, "--rename");
      const std::size_t eq = text.find('=');
      if (eq == std::string::npos) throw InputError("--rename '" + text + "': expected OLD=NEW");
      r.renames.emplace_back(text.substr(0, eq), text.substr(eq + 1));
    }
  }
  return r;
}

int reshape(int argc, const char* const* argv, const std::string& program) {
  const auto options = reshape_options();
  po::options_description with_input;
  with_input.add(options).add_options()("input", po::value<std::vector<std::string>>(), "the trace");
  const auto vm = parse_trace_options(argc, argv, with_input, true);
  if (vm.count("help")) {
    std::cout
        << "Usage: " << program << " [options] TRACE\n\n"
        << "A spotsim trace re-priced, re-shaped (instance type, GPU, GPUs per instance) or with zones and\n"
        << "regions renamed; what was done is appended to its provenance. What the recording cannot say is\n"
        << "refused unless you say how: a new shape needs --availability and a price rule (docs/traces.md#reshape).\n\n"
        << "Example: " << program
        << " gcp-h100-capacity-13-zones --gpus-per-instance 8 --instance-type a3-highgpu-8g \\\n"
        << "           --availability pooled --prices per-gpu -o gcp-h100-8g.json\n"
        << options << "\n";
    return 0;
  }
  check_output_option(vm);
  if (!vm.count("input")) throw InputError("no trace given (a file, or the name of a shipped trace)");
  const auto inputs = vm["input"].as<std::vector<std::string>>();
  if (inputs.size() != 1) throw InputError("expected one trace, got " + std::to_string(inputs.size()));
  const std::string path = locate_trace(inputs.front(), "TRACE");
  SpotMarket market = read_trace_file(path);
  const std::string note = reshape_trace(market, reshape_request_from(vm));
  if (vm.count("name")) {
    market.name = vm["name"].as<std::string>();
    require_utf8(market.name, "--name");
    if (market.name.empty()) throw InputError("--name: expected a name, got ''");
  }
  if (vm.count("description")) {
    market.description = vm["description"].as<std::string>();
    require_utf8(market.description, "--description");
  }
  const nlohmann::json doc = trace_to_json(market);
  parse_trace(doc, "reshaped trace");  // the output must read back; a failure here is a bug, reported as such
  std::cerr << program << ": " << note << "\n";
  emit(vm, format_trace_document(doc), program);
  return 0;
}

}  // namespace

boost::program_options::options_description trace_reshape_command_options() { return reshape_options(); }

int trace_reshape_command(int argc, const char* const* argv) {
  return run_reporting_errors(argc > 0 ? argv[0] : "spotsim trace reshape", reshape, argc, argv);
}

}  // namespace spotsim

// Options and plumbing shared by the `spotsim trace` subcommands.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/options/command_line.hpp"
#include "base/atomic_file.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"
#include "cli/trace_subcommands.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "traces/importers/trace_importer.hpp"

namespace spotsim {

namespace po = boost::program_options;

po::options_description input_options() {
  std::string formats;
  for (const auto& f : trace_formats()) formats += std::string("\n  ") + f.name + ": " + f.description;
  po::options_description o("Reading the input");
  o.add_options()(
      "input,i", po::value<std::vector<std::string>>(),
      "input file(s) or folder, or the name of a shipped trace (us-west1); also given as positional arguments")(
      "from", po::value<std::string>()->default_value("auto"),
      ("input format, or auto (detected from the content):" + formats).c_str())(
      "zone-name", po::value<std::vector<std::string>>(),
      "name of the zone of each single-zone input, in order [default: from the data or the file name, e.g. "
      "us-west-2a_v100_1.json -> us-west-2a]")("only-zone", po::value<std::string>(),
                                               "multi-zone inputs: keep only this zone")(
      "time-unit", po::value<std::string>(),
      "unit of the times of a plain 'time,count' file: ms, s, min or h (required for it)")(
      "span", po::value<std::string>(),
      "length of an event-based recording (node events, counts, AWS prices, GCP preemptions), e.g. 12h "
      "[default: see docs/traces.md]");
  return o;
}

po::options_description offer_options() {
  po::options_description o("What the zones offer (where the input does not say)");
  o.add_options()("instance-type", po::value<std::string>(), "instance type, e.g. p3.2xlarge")(
      "gpu", po::value<std::string>(), "GPU model, e.g. V100-16GB (one model: a family such as A100 is refused)")(
      "gpus-per-instance", po::value<std::string>()->default_value("1"), "GPUs per instance, 1 to 1024")(
      "on-demand-price", po::value<double>(), "on-demand USD per instance-hour")(
      "spot-price", po::value<double>(), "spot USD per instance-hour, for inputs that record no price")(
      "notice", po::value<std::string>(), "preemption notice, e.g. 30s [default: 120s AWS, 30s GCP]");
  return o;
}

namespace {

double price_option(const po::variables_map& vm, const char* name) {
  const double v = vm[name].as<double>();
  if (!(v >= 0.0 && v <= 1e6))
    throw InputError(std::string("--") + name + ": expected a price in [0, 1000000] USD per hour");
  return v;
}

}  // namespace

ImportOptions import_options_from(const po::variables_map& vm) {
  ImportOptions o;
  if (vm.count("only-zone")) {
    o.only_zone = vm["only-zone"].as<std::string>();
    require_utf8(o.only_zone, "--only-zone");
  }
  if (vm.count("time-unit")) {
    const std::string unit = vm["time-unit"].as<std::string>();
    if (unit == "ms")
      o.time_unit = 1;
    else if (unit == "s")
      o.time_unit = kMillisPerSecond;
    else if (unit == "min")
      o.time_unit = kMillisPerMinute;
    else if (unit == "h")
      o.time_unit = kMillisPerHour;
    else
      throw InputError("--time-unit '" + unit + "': expected ms, s, min or h");
  }
  if (vm.count("span")) o.span = parse_duration(vm["span"].as<std::string>(), "--span");
  if (o.span && *o.span <= 0) throw InputError("--span: expected a positive duration");
  if (vm.count("instance-type")) o.instance_type = vm["instance-type"].as<std::string>();
  if (vm.count("gpu")) {
    o.gpu = vm["gpu"].as<std::string>();
    find_one_gpu(o.gpu,
                 "--gpu");  // refuses a family of several ("A100"); a GPU outside the spec table is kept as given
  }
  if (vm.count("gpus-per-instance")) o.gpus_per_instance = int_count_option(vm, "gpus-per-instance", 1, 1024);
  if (vm.count("on-demand-price")) o.on_demand_price_per_hour = price_option(vm, "on-demand-price");
  if (vm.count("spot-price")) o.spot_price_per_hour = price_option(vm, "spot-price");
  if (vm.count("notice")) o.notice = parse_duration(vm["notice"].as<std::string>(), "--notice");
  return o;
}

namespace {

// An input that exists is read as given (file or folder); a bare name that does not is looked up in the shipped
// library as `simulate --trace` does ("us-west1", "gcp-h100-13-zones.json"), with the same error when absent.
std::string resolve_input(const std::string& input) {
  std::error_code ec;
  // A path (with a '/') that does not exist keeps the reader's own error, as the Python module gives it.
  if (std::filesystem::exists(input, ec) || input.find('/') != std::string::npos) return input;
  return locate_trace(input, "input");
}

// Zone names for a note: "us-west-2a, us-west-2b" (the first few of a long list).
std::string zone_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 4; ++i) out += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > 4) out += " and " + std::to_string(names.size() - 4) + " more";
  return out;
}

// What the offer options say overrides what the input records (a spotsim trace records all of it; an importer
// may read some of it from the data), in every zone, with a note on stderr for each field that changes. Only
// --spot-price is refused where every input records spot prices: replacing a recorded price history by one
// constant would silently throw data away (docs/traces.md#offer-options).
void apply_offer_overrides(const po::variables_map& vm, const ImportOptions& o, ImportedTrace& imported) {
  if (vm.count("spot-price") && imported.records_spot_prices) {
    throw InputError("--spot-price: the " + imported.format +
                     " input records its spot prices; --spot-price only fills "
                     "in a price for inputs that record none (spotsim trace reshape --spot-price re-prices a trace, "
                     "saying so in its "
                     "provenance)");
  }
  const auto note = [&](const char* option, const std::string& value, const std::vector<std::string>& zones) {
    if (zones.empty()) return;
    std::cerr << "note: --" << option << " " << value << " replaces what the input records in zone(s) "
              << zone_list(zones) << "\n";
  };
  std::vector<std::string> changed;
  const auto override_field = [&](const char* option, const std::string& value, auto&& differs, auto&& set) {
    if (!vm.count(option) || vm[option].defaulted()) return;
    changed.clear();
    for (Zone& zone : imported.market.zones) {
      if (!differs(zone)) continue;
      changed.push_back(zone.name);
      set(zone);
    }
    note(option, value, changed);
  };
  override_field(
      "instance-type", o.instance_type, [&](const Zone& z) { return z.instance_type != o.instance_type; },
      [&](Zone& z) { z.instance_type = o.instance_type; });
  override_field(
      "gpu", o.gpu, [&](const Zone& z) { return z.gpu != o.gpu; }, [&](Zone& z) { z.gpu = o.gpu; });
  override_field(
      "gpus-per-instance", std::to_string(o.gpus_per_instance),
      [&](const Zone& z) { return z.gpus_per_instance != o.gpus_per_instance; },
      [&](Zone& z) { z.gpus_per_instance = o.gpus_per_instance; });
  override_field(
      "on-demand-price", format_fixed(o.on_demand_price_per_hour, 4) + " $/h",
      [&](const Zone& z) { return z.on_demand_price_per_hour != o.on_demand_price_per_hour; },
      [&](Zone& z) { z.on_demand_price_per_hour = o.on_demand_price_per_hour; });
  if (o.notice) {
    override_field(
        "notice", vm["notice"].as<std::string>(), [&](const Zone& z) { return z.spot.notice != *o.notice; },
        [&](Zone& z) { z.spot.notice = *o.notice; });
  }
}

}  // namespace

ImportedTrace import_inputs(const po::variables_map& vm) {
  if (!vm.count("input")) throw InputError("no input file given");
  const auto inputs = vm["input"].as<std::vector<std::string>>();
  const auto names =
      vm.count("zone-name") ? vm["zone-name"].as<std::vector<std::string>>() : std::vector<std::string>{};
  for (const std::string& name : names) require_utf8(name, "--zone-name");
  if (!names.empty() && names.size() != inputs.size()) {
    throw InputError("--zone-name: expected one per input (" + std::to_string(inputs.size()) + "), got " +
                     std::to_string(names.size()));
  }
  const ImportOptions base = import_options_from(vm);
  std::vector<ImportedTrace> parts;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    ImportOptions options = base;
    if (!names.empty()) options.zone_name = names[i];
    parts.push_back(import_trace_file(resolve_input(inputs[i]), vm["from"].as<std::string>(), options));
  }
  ImportedTrace merged = merge_imported(std::move(parts));
  apply_offer_overrides(vm, base, merged);
  return merged;
}

po::variables_map parse_trace_options(int argc, const char* const* argv, const po::options_description& options,
                                      bool positional_inputs) {
  po::positional_options_description positional;
  if (positional_inputs) positional.add("input", -1);
  return parse_command_line(argc, argv, options, positional);
}

// One line per top-level field and per zone: diff-friendly, yet a two-week availability trace stays one line.
std::string format_trace_document(const nlohmann::json& doc) {
  std::string out = "{\n";
  std::size_t i = 0;
  for (auto it = doc.begin(); it != doc.end(); ++it, ++i) {
    out += "  " + json_text(nlohmann::json(it.key())) + ": ";
    if (it.key() == "zones") {
      out += "[\n";
      for (std::size_t z = 0; z < it->size(); ++z)
        out += "    " + json_text((*it)[z]) + (z + 1 < it->size() ? ",\n" : "\n");
      out += "  ]";
    } else {
      out += it->dump();
    }
    out += i + 1 < doc.size() ? ",\n" : "\n";
  }
  return out + "}\n";
}

void emit(const po::variables_map& vm, const std::string& text, const std::string& program) {
  if (vm.count("output")) {
    write_file_atomically(vm["output"].as<std::string>(), text);
    std::cerr << program << ": wrote " << vm["output"].as<std::string>() << "\n";
  } else {
    std::cout << text;
  }
}

std::string table_or_json(const po::variables_map& vm) {
  check_output_option(vm);
  std::string format = "table";
  if (vm.count("format")) {
    format = vm["format"].as<std::string>();
  } else if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    if (path.ends_with(".json")) format = "json";
    // A table in a .csv file would be silently unreadable as CSV.
    if (path.ends_with(".csv")) {
      throw InputError("--output '" + path +
                       "': this command writes a table or JSON, not CSV; use .json, or give "
                       "--format table");
    }
  }
  if (format != "table" && format != "json") throw InputError("--format '" + format + "': expected table or json");
  return format;
}

int run_reporting_errors(const std::string& program, int (*body)(int, const char* const*, const std::string&), int argc,
                         const char* const* argv) {
  try {
    return body(argc, argv, program);
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim

#include "app/advise/gpu_offer_catalogue.hpp"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/advise/catalogue_rows.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/shipped_library.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace fs = std::filesystem;

namespace {

constexpr double kMaxPricePerHour = 1e5;

// A trace named with a '/' is a path relative to the catalogue (a user's own catalogue beside its traces);
// a bare name is a shipped trace.
std::string resolve_trace(const std::string& name, const JsonFields& f) {
  if (name.find('/') == std::string::npos) {
    try {
      return locate_trace(name);
    } catch (const InputError& e) {
      f.fail("trace", std::string("a shipped trace name or a path relative to the catalogue (") + e.what() + ")");
    }
  }
  const fs::path path = fs::path(name).is_absolute() ? fs::path(name) : fs::path(f.file()).parent_path() / name;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) f.fail("trace", "an existing trace file; no such file: " + path.string());
  return path.string();
}

PreemptionSource read_trace_source(const JsonFields& f, PreemptionSource source) {
  const std::string trace_path = resolve_trace(f.string("trace"), f);
  const SpotMarket market = read_trace_file(trace_path);
  const std::string wanted = f.optional_string("zone");
  const Zone* zone = nullptr;
  if (wanted.empty()) {
    if (market.zones.size() != 1) f.fail("zone", "the zone to use: " + trace_path + " has several zones");
    zone = &market.zones.front();
  } else {
    for (const Zone& z : market.zones) {
      if (z.name == wanted) zone = &z;
    }
    if (zone == nullptr) f.fail("zone", "a zone of " + trace_path + ", got '" + wanted + "'");
  }
  source.spot = zone->spot;
  source.span = market.span;
  source.origin = fs::path(trace_path).filename().string() + ":" + zone->name;
  return source;
}

PreemptionSource read_source(const std::string& name, const JsonFields& f) {
  f.reject_unknown({"trace", "zone", "lifetime", "notice_s", "basis", "notes"});
  PreemptionSource source;
  source.name = name;
  source.basis = f.string("basis");
  if (source.basis != "recorded" && source.basis != "fitted" && source.basis != "default") {
    f.fail_value("basis", "\"recorded\", \"fitted\" or \"default\"", f.raw("basis"));
  }
  source.notes = f.optional_string("notes");
  if (f.has("trace") == f.has("lifetime")) f.fail("trace", "exactly one of 'trace' or 'lifetime'");
  if (f.has("trace")) {
    if (f.has("notice_s")) f.fail("notice_s", "no notice_s with a trace (the trace's zone sets it)");
    return read_trace_source(f, source);
  }
  if (f.has("zone")) f.fail("zone", "no zone with a lifetime model");
  source.spot.lifetime = parse_lifetime(f.raw("lifetime"), f.file(), f.path_of("lifetime"));
  source.spot.notice = millis_from_seconds(f.number("notice_s", 0.0, 3600.0));
  char mean[64];
  // Hours below 100 keep a decimal: the AWS band defaults are 3.3 to 33 h (docs/advise.md#aws-default).
  const double hours = source.spot.lifetime->mean();
  if (hours < 100.0) {
    std::snprintf(mean, sizeof mean, " mean %.1f h", hours);
  } else {
    std::snprintf(mean, sizeof mean, " mean %.0f h", hours);
  }
  source.origin = source.spot.lifetime->name() + mean;
  return source;
}

GpuOffer read_offer(const JsonFields& f, const std::map<std::string, PreemptionSource>& sources) {
  f.reject_unknown({"cloud", "region", "zone", "instance_type", "gpu", "gpus_per_instance", "on_demand_per_hour",
                    "spot_per_hour", "spot_price_estimated", "date", "source", "preemption", "notes", "on_demand_only",
                    "unranked"});
  GpuOffer offer;
  offer.cloud = f.string("cloud");
  offer.region = f.string("region");
  offer.zone = f.optional_string("zone");
  offer.instance_type = f.string("instance_type");
  offer.gpu = canonical_gpu_name(f.string("gpu"));
  offer.gpus_per_instance = static_cast<int>(f.integer("gpus_per_instance", 1, 64));
  offer.on_demand_per_hour = f.number("on_demand_per_hour", 0.0, kMaxPricePerHour);
  offer.spot_per_hour = f.number("spot_per_hour", 0.0, kMaxPricePerHour);
  offer.spot_price_estimated = f.boolean("spot_price_estimated", false);
  offer.date = f.string("date");
  offer.source = f.string("source");
  offer.notes = f.optional_string("notes");
  offer.on_demand_only = f.optional_string("on_demand_only");
  offer.unranked = f.optional_string("unranked");
  if (!offer.on_demand_only.empty() && !offer.unranked.empty()) {
    f.fail("unranked", "either 'on_demand_only' or 'unranked', not both");
  }
  // An offer never rented on spot needs no preemption source.
  if (!offer.on_demand_only.empty() || !offer.unranked.empty()) {
    if (f.has("preemption")) f.fail("preemption", "no preemption source for an offer never rented on spot");
    return offer;
  }
  offer.preemption = f.string("preemption");
  if (!sources.contains(offer.preemption)) {
    f.fail_value("preemption", "the name of an entry of preemption_sources", f.raw("preemption"));
  }
  return offer;
}

}  // namespace

std::string GpuOffer::label() const { return cloud + " " + (zone.empty() ? region : zone) + " " + instance_type; }

GpuOfferCatalogue read_gpu_offer_catalogue(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonFields top(document, path, "");
  top.reject_unknown({"format", "version", "description", "preemption_sources", "offers"});
  if (top.string("format") != "spotsim-gpu-offers") {
    top.fail_value("format", "\"spotsim-gpu-offers\"", top.raw("format"));
  }
  top.integer("version", kGpuOfferCatalogueVersion, kGpuOfferCatalogueVersion);
  GpuOfferCatalogue catalogue;
  catalogue.path = path;
  catalogue.description = top.optional_string("description");

  const JsonFields sources = top.object("preemption_sources");
  for (const auto& [name, value] : top.raw("preemption_sources").items()) {
    catalogue.sources.emplace(name, read_source(name, sources.object(name)));
  }
  catalogue.offers =
      read_catalogue_rows<GpuOffer>(top, "cloud, zone (or region) and instance type",
                                    [&](const JsonFields& f) { return read_offer(f, catalogue.sources); });
  return catalogue;
}

std::string locate_shipped_catalogue(const std::string& name_or_path, const std::string& option) {
  std::error_code ec;
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  if (fs::is_directory(name_or_path, ec)) {
    throw InputError(option + " '" + name_or_path + "': is a directory, not a file");
  }
  if (name_or_path.find('/') == std::string::npos) {
    const fs::path dir = fs::path(shipped_trace_directory()) / "catalogue";
    for (const std::string& candidate : {name_or_path, name_or_path + ".json"}) {
      if (fs::is_regular_file(dir / candidate, ec)) return (dir / candidate).string();
    }
    throw InputError(option + " '" + name_or_path + "': no such file (also looked in " + dir.string() + ")");
  }
  throw InputError(option + " '" + name_or_path + "': no such file");
}

std::string locate_gpu_offer_catalogue(const std::string& name_or_path) {
  return locate_shipped_catalogue(name_or_path, "--catalogue");
}

}  // namespace spotsim

#include "traces/importers/trace_importer.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/text_format.hpp"
#include "base/text_lines.hpp"
#include "model/market/zone_selection.hpp"
#include "traces/importers/aws_spot_price_importer.hpp"
#include "traces/importers/cant_be_late_importer.hpp"
#include "traces/importers/gcp_preemption_importer.hpp"
#include "traces/importers/instance_count_importer.hpp"
#include "traces/importers/lifetime_record_importer.hpp"
#include "traces/importers/node_event_importer.hpp"
#include "traces/importers/skynomad_aws_importer.hpp"
#include "traces/importers/skynomad_gcp_counts_importer.hpp"
#include "traces/importers/skynomad_gcp_importer.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

const std::vector<TraceFormatInfo>& trace_formats() {
  static const std::vector<TraceFormatInfo> formats = {
      {"spotsim", "spotsim trace format v1 or v2 (docs/trace-format.md)"},
      {"cant-be-late", "{\"metadata\":{\"gap_seconds\":G},\"data\":[counts],\"prices\":[...]} (Wu et al., NSDI'24)"},
      {"aws-spot-prices", "aws ec2 describe-spot-price-history --output json"},
      {"gcp-preemptions",
       "gcloud compute operations list --filter=operationType=compute.instances.preempted --format=json"},
      {"gcp-lifetime-json", "per-VM records of the GCP preemptible dataset (Kadupitiya et al., HPDC'20), data.json"},
      {"node-events", "time_ms,add|remove,node (Bamboo, Parcae)"},
      {"instance-counts", "YYYY-MM-DD, HH:MM:SS, count, or time,count with --time-unit"},
      {"lifetime-csv",
       "CSV of per-VM lifetimes with a header: lifetime_s (or launch_time,end_time), preempted (or end_event), zone, "
       "machine_type"},
      {"skynomad-gcp-counts",
       "CSV scheduled_at,zone,requested,created,capacity_exhausted_detected,status (SkyNomad GCP H100 capacity probes; "
       "prices from gcp-h100-13-zones/ beside it)"},
      {"skynomad-gcp",
       "a FOLDER of <zone>_h100_16.json (SkyNomad, NSDI'27: GCP H100, 13 zones, 8 regions; never detected)"},
      {"skynomad-aws",
       "a FOLDER of <zone>_v100_1.csv + v100_spot_prices.json (SkyNomad: AWS V100, 9 zones; never detected)"},
  };
  return formats;
}

namespace {

std::string known_formats() {
  std::string list;
  for (const auto& f : trace_formats()) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

std::string json_format(const nlohmann::json& doc) {
  if (doc.is_object()) {
    if (doc.contains("format") && doc["format"] == "spotsim-trace") return "spotsim";
    if (doc.contains("metadata") && doc.contains("data")) return "cant-be-late";
    if (doc.contains("SpotPriceHistory")) return "aws-spot-prices";
    if (!doc.empty() && doc.begin()->is_object() && doc.begin()->contains("instance_data")) return "gcp-lifetime-json";
  }
  if (doc.is_array() && !doc.empty() && doc.front().is_object() && doc.front().contains("operationType")) {
    return "gcp-preemptions";
  }
  return "";
}

bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::string text_format(const std::string& content, const std::string& file) {
  TextLines lines(content.substr(0, std::min<std::size_t>(content.size(), 4096)), file);
  std::vector<std::string> f;
  if (!lines.next(f)) return "";
  if (f == std::vector<std::string>{"scheduled_at", "zone", "requested", "created", "capacity_exhausted_detected",
                                    "status"}) {
    return "skynomad-gcp-counts";
  }
  if (f.size() == 3 && (f[1] == "add" || f[1] == "remove")) return "node-events";
  if (f.size() == 3 && f[0].size() == 10 && f[0][4] == '-' && f[0][7] == '-') return "instance-counts";
  if (f.size() == 2 && is_number(f[0]) && is_number(f[1])) return "instance-counts";
  for (const std::string& name : f) {
    if (name == "lifetime_s" || name == "launch_time" || name == "end_event" || name == "preempted")
      return "lifetime-csv";
  }
  return "";
}

bool looks_like_json(const std::string& content) {
  const auto first = content.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (content[first] == '{' || content[first] == '[');
}

ImportedTrace import_spotsim(const nlohmann::json& doc, const std::string& file, const ImportOptions& options) {
  ImportedTrace out;
  out.format = "spotsim";
  out.market = parse_trace(doc, file);
  // --only-zone keeps one zone here as in every other multi-zone format (with its region's egress prices only).
  if (!options.only_zone.empty()) {
    out.market =
        select_zones(out.market, ZoneSelection{ZoneSelection::By::kZones, {options.only_zone}}, file + ": --only-zone");
  }
  out.records_spot_prices = true;
  for (const Zone& zone : out.market.zones) {
    if (!zone.spot.lifetime) continue;
    if (const auto* empirical = std::get_if<EmpiricalLifetime>(&zone.spot.lifetime->model())) {
      for (const auto& r : empirical->records()) out.lifetimes.push_back({r, zone.name, zone.instance_type});
    }
  }
  return out;
}

}  // namespace

std::string detect_trace_format(const std::string& content, const std::string& file) {
  std::string format;
  if (looks_like_json(content)) {
    format = json_format(parse_json_text(content, file));
  } else {
    format = text_format(content, file);
  }
  if (format.empty()) {
    throw InputError(file + ": cannot tell the format from the content; expected one of " + known_formats() +
                     " (name it with --from FORMAT)");
  }
  return format;
}

ImportedTrace import_trace_content(const std::string& content, const std::string& file, const std::string& format,
                                   const ImportOptions& options) {
  const std::string f = format == "auto" ? detect_trace_format(content, file) : format;
  if (f == "node-events") return import_node_events(content, file, options);
  if (f == "instance-counts") return import_instance_counts(content, file, options);
  if (f == "lifetime-csv") return import_lifetime_csv(content, file, options);
  if (f == "skynomad-gcp-counts") return import_skynomad_gcp_counts(content, file, options);
  const bool json = f == "spotsim" || f == "cant-be-late" || f == "aws-spot-prices" || f == "gcp-preemptions" ||
                    f == "gcp-lifetime-json";
  if (!json) throw InputError("--from '" + f + "': unknown format; expected auto or one of " + known_formats());
  const nlohmann::json doc = parse_json_text(content, file);
  if (f == "spotsim") return import_spotsim(doc, file, options);
  if (f == "cant-be-late") return import_cant_be_late(doc, file, options);
  if (f == "aws-spot-prices") return import_aws_spot_prices(doc, file, options);
  if (f == "gcp-preemptions") return import_gcp_preemptions(doc, file, options);
  return import_gcp_lifetime_json(doc, file, options);
}

ImportedTrace import_trace_file(const std::string& path, const std::string& format, const ImportOptions& options) {
  // The multi-region data sets are folders of per-zone files; every other format is one file.
  if (format == "skynomad-gcp") return import_skynomad_gcp(path, options);
  if (format == "skynomad-aws") return import_skynomad_aws(path, options);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(path +
                     ": is a directory; only --from skynomad-gcp and --from skynomad-aws read a folder, "
                     "every other format is one file");
  }
  return import_trace_content(read_text_file(path), path, format, options);
}

StepSeries truncate_series(const StepSeries& series, Millis span) {
  if (series.is_constant() || series.span() <= span) return series;
  std::vector<Millis> times;
  std::vector<double> values;
  for (std::size_t i = 0; i < series.times().size() && series.times()[i] < span; ++i) {
    times.push_back(series.times()[i]);
    values.push_back(series.values()[i]);
  }
  return StepSeries(std::move(times), std::move(values), span);
}

ImportedTrace merge_imported(std::vector<ImportedTrace> parts) {
  if (parts.empty()) throw InputError("no input trace given");
  if (parts.size() == 1) return std::move(parts.front());
  ImportedTrace out;
  out.format = parts.front().format;
  out.records_spot_prices = true;
  Millis span = kNever;
  bool spans_differ = false;
  for (const auto& p : parts) {
    if (p.market.span == kNever) continue;
    if (span != kNever && p.market.span != span) spans_differ = true;
    span = std::min(span, p.market.span);
  }
  std::string names;
  for (auto& p : parts) {
    if (p.format != out.format) out.format = "mixed";
    out.records_spot_prices = out.records_spot_prices && p.records_spot_prices;
    names += (names.empty() ? "" : "+") + p.market.name;
    for (auto& l : p.lifetimes) out.lifetimes.push_back(std::move(l));
    for (Zone& zone : p.market.zones) {
      for (const Zone& other : out.market.zones) {
        if (other.name == zone.name) {
          throw InputError("zone '" + zone.name +
                           "' comes from two inputs; give each input its own zone name (--zone-name)");
        }
      }
      zone.spot.price_per_hour = truncate_series(zone.spot.price_per_hour, span);
      if (zone.spot.available) zone.spot.available = truncate_series(*zone.spot.available, span);
      auto& pre = zone.spot.preemption_times;
      pre.erase(std::lower_bound(pre.begin(), pre.end(), span), pre.end());
      if (zone.spot.preemption_period != kNever) zone.spot.preemption_period = span;
      out.market.zones.push_back(std::move(zone));
    }
    if (!p.market.provenance.notes.empty()) out.market.provenance.notes += p.market.provenance.notes + " ";
    // Egress prices of every part (a pair priced by two parts keeps the first price); bandwidths of the first.
    if (&p == &parts.front()) out.market.migration = p.market.migration, out.market.migration.egress.clear();
    for (const EgressPrice& price : p.market.migration.egress) {
      if (!out.market.migration.egress_usd_per_gb(price.from, price.to)) out.market.migration.egress.push_back(price);
    }
  }
  out.market.name = names;
  out.market.span = span;
  // Recordings on one clock keep it (Can't Be Late files of one campaign: every zone ticks every gap_seconds), so
  // that replications start on a tick and the tick mode works on the merged trace as on each part.
  Millis tick = parts.front().market.tick;
  for (const auto& p : parts) tick = p.market.tick == tick ? tick : 0;
  if (tick > 0 && span != kNever && span % tick == 0) out.market.tick = tick;
  if (spans_differ) {
    out.market.provenance.notes +=
        "Inputs of different lengths were cut to the shortest (" + format_fixed(to_hours(span), 2) + " h).";
  }
  return out;
}

}  // namespace spotsim

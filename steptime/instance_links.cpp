#include "steptime/instance_links.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/shipped_library.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {

namespace fs = std::filesystem;

namespace {

// Bounds that catch unit mistakes (a Gbit/s figure typed as Tbit/s, a latency in ns) without excluding any
// real link: NVLink 5 is 900 GB/s per direction, the fastest instance networks 3,200 Gbit/s.
constexpr double kMaxIntraGbps = 10'000.0;
constexpr double kMaxNetworkGbitPerS = 100'000.0;
constexpr double kMaxLatencyUs = 10'000.0;

void read_source_fields(const JsonFields& f, bool& estimated) {
  const std::string basis = f.string("basis");
  if (basis != "vendor documentation" && basis != "estimated") {
    f.fail_value("basis", "\"vendor documentation\" or \"estimated\"", f.raw("basis"));
  }
  if (basis == "estimated") estimated = true;
  if (f.string("source").empty()) f.fail("source", "a non-empty source (a vendor page or how the figure was inferred)");
  f.string("as_of");
}

InstanceLinkEntry read_entry(const JsonFields& f) {
  f.reject_unknown({"instance_type", "cloud", "gpu", "gpus_per_instance", "intra", "network", "notes"});
  InstanceLinkEntry e;
  e.links.instance_type = f.string("instance_type");
  if (e.links.instance_type.empty()) f.fail("instance_type", "a non-empty instance type");
  e.cloud = f.string("cloud");
  e.gpu = canonical_gpu_name(f.string("gpu"));
  e.links.gpus_per_instance = static_cast<int>(f.integer("gpus_per_instance", 1, kMaxGpusPerInstance));
  f.optional_string("notes");

  const JsonFields intra = f.object("intra");
  intra.reject_unknown({"link", "gb_per_s_per_gpu", "latency_us", "latency_source", "basis", "source", "as_of"});
  e.intra_link = intra.string("link");
  read_source_fields(intra, e.estimated);
  if (e.links.gpus_per_instance > 1) {
    e.links.intra_gbps = intra.number("gb_per_s_per_gpu", 1e-3, kMaxIntraGbps);
    e.links.intra_latency_us = intra.number("latency_us", 0.0, kMaxLatencyUs);
    intra.string("latency_source");
  } else if (intra.has("gb_per_s_per_gpu") || intra.has("latency_us")) {
    intra.fail("gb_per_s_per_gpu", "no intra-instance bandwidth or latency for an instance with one GPU");
  }

  const JsonFields network = f.object("network");
  network.reject_unknown({"gbit_per_s", "fabric", "latency_us", "latency_source", "basis", "source", "as_of"});
  e.network_gbit_per_s = network.number("gbit_per_s", 1e-3, kMaxNetworkGbitPerS);
  e.links.inter_gbps = e.network_gbit_per_s / 8.0;
  e.fabric = network.string("fabric");
  e.links.latency_us = network.number("latency_us", 0.0, kMaxLatencyUs);
  network.string("latency_source");
  read_source_fields(network, e.estimated);
  return e;
}

}  // namespace

const InstanceLinkEntry* InstanceLinkTable::find(const std::string& instance_type) const {
  for (const auto& e : entries) {
    if (e.links.instance_type == instance_type) return &e;
  }
  return nullptr;
}

const InstanceLinkEntry& InstanceLinkTable::at(const std::string& instance_type, const std::string& what) const {
  if (const InstanceLinkEntry* e = find(instance_type)) return *e;
  std::string known;
  for (const auto& e : entries) known += (known.empty() ? "" : ", ") + e.links.instance_type;
  throw InputError(what + ": unknown instance type '" + instance_type + "' (" + path + " has: " + known + ")");
}

InstanceLinkTable read_instance_links(const std::string& path) {
  const nlohmann::json document = read_json_file(path);
  const JsonFields top(document, path, "");
  top.reject_unknown({"format", "version", "description", "instances"});
  if (top.string("format") != "spotsim-instance-links") {
    top.fail_value("format", "\"spotsim-instance-links\"", top.raw("format"));
  }
  top.integer("version", kInstanceLinksVersion, kInstanceLinksVersion);
  top.optional_string("description");
  const nlohmann::json& instances = top.array("instances");
  if (instances.empty()) top.fail("instances", "at least one instance type");
  InstanceLinkTable table;
  table.path = path;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const std::string where = "instances[" + std::to_string(i) + "]";
    if (!instances[i].is_object()) top.fail_value(where, "an instance object", instances[i]);
    const JsonFields f(instances[i], path, where);
    InstanceLinkEntry entry = read_entry(f);
    if (!seen.insert(entry.links.instance_type).second) {
      f.fail("instance_type", "a unique instance type: '" + entry.links.instance_type + "' appears twice");
    }
    table.entries.push_back(std::move(entry));
  }
  return table;
}

std::string locate_instance_links(const std::string& name_or_path) {
  std::error_code ec;
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  if (fs::is_directory(name_or_path, ec))
    throw InputError("--links '" + name_or_path + "': is a directory, not a file");
  if (name_or_path.find('/') == std::string::npos) {
    const fs::path dir = fs::path(shipped_trace_directory()) / "catalogue";
    for (const std::string& candidate : {name_or_path, name_or_path + ".json"}) {
      if (fs::is_regular_file(dir / candidate, ec)) return (dir / candidate).string();
    }
    throw InputError("--links '" + name_or_path + "': no such file (also looked in " + dir.string() + ")");
  }
  throw InputError("--links '" + name_or_path + "': no such file");
}

}  // namespace spotsim

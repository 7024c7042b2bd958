#pragma once
// The links a data-parallel job's all-reduce runs over (docs/step-time.md#data-parallel): per instance type,
// how many GPUs it has, the link between them (NVLink/NVSwitch or PCIe) and the network between instances.
// Read from traces/library/catalogue/instance_links.json, where every figure names its source.
#include <string>
#include <vector>

namespace spotsim {

// What the all-reduce model needs of one instance type. Bandwidths in GB/s (bytes), as everywhere in
// `spotsim steptime`: `intra_gbps` per GPU and per direction inside the instance, `inter_gbps` per instance
// (its network, Gbit/s / 8) between instances.
struct InstanceLinks {
  std::string instance_type;
  int gpus_per_instance = 1;
  double intra_gbps = 0;  // 0 when the instance has one GPU
  double inter_gbps = 0;
  double latency_us = 0;        // per ring step between instances
  double intra_latency_us = 0;  // per ring step inside an instance
};

struct InstanceLinkEntry {
  InstanceLinks links;
  std::string cloud;
  std::string gpu;         // canonical spec-table name where the table has it ("A100-40GB"), else as written
  std::string intra_link;  // "NVLink 3 through NVSwitch ..."
  std::string fabric;      // "EFA ...", "gVNIC (TCP)"
  double network_gbit_per_s = 0;
  bool estimated = false;  // some figure of the entry is inferred rather than published
};

struct InstanceLinkTable {
  std::string path;
  std::vector<InstanceLinkEntry> entries;

  // nullptr when the table has no such instance type.
  const InstanceLinkEntry* find(const std::string& instance_type) const;
  // InputError naming `what` (an option) and listing the known types.
  const InstanceLinkEntry& at(const std::string& instance_type, const std::string& what) const;
};

inline constexpr int kInstanceLinksVersion = 1;
// The most GPUs one instance type may declare (the largest shipping shapes have 16).
inline constexpr int kMaxGpusPerInstance = 64;

// Reads a link table (format "spotsim-instance-links", version 1); InputError naming the file and the field for
// anything missing, mistyped, out of range, unknown or duplicated.
InstanceLinkTable read_instance_links(const std::string& path);
// An existing path as given, else the shipped table NAME[.json] in traces/library/catalogue/.
std::string locate_instance_links(const std::string& name_or_path);

}  // namespace spotsim

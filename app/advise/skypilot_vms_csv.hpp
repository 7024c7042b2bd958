#pragma once
// One file of SkyPilot's public VM catalogue (skypilot-org/skypilot-catalog, `catalogs/v7/<cloud>/vms.csv`; a
// user's copy is ~/.sky/catalogs/v7/<cloud>/vms.csv): its rows as published, columns found by header name because
// their order differs between clouds (docs/advise.md#skypilot). Only what an offer needs is kept and checked; an
// error names the file, the line and the column.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace spotsim {

struct SkyPilotVmRow {
  std::size_t line = 0;
  std::string instance_type;     // empty in GCP's GPU rows, which price the GPUs alone
  std::string accelerator;       // SkyPilot's GPU name; empty for a CPU-only row (and GCP's host VM rows)
  double accelerator_count = 0;  // as published: 8.0, 12, or a share of one GPU (0.25)
  std::optional<double> price;   // on-demand USD per instance-hour; nullopt when the cell is empty
  std::optional<double> spot_price;
  std::string region;
  std::string zone;  // AvailabilityZone where the cloud has the column (AWS AZ ids, GCP zones, RunPod data centres)
};

struct SkyPilotVmFile {
  std::string path;                 // as read, for messages
  std::string name;                 // how offers name it: "aws_vms.csv" or "aws/vms.csv"
  std::string cloud;                // "aws", "gcp", "azure", "lambda", "runpod", ...
  std::vector<SkyPilotVmRow> rows;  // GPU rows and, on GCP, host VM rows; other CPU-only rows are left out
};

// Reads `path` (size-bounded like every input); InputError for a missing column (named), a row whose field count
// differs from the header's, a price that is not a number in [0, 1e5], a GPU count that is not in (0, 64] or not
// whole above 1, or text that is not UTF-8.
SkyPilotVmFile read_skypilot_vms_csv(const std::string& path, const std::string& name, const std::string& cloud);

}  // namespace spotsim

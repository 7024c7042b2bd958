#pragma once
// `spotsim advise --catalogue FILE|DIR` on SkyPilot's public price catalogue (docs/advise.md#skypilot): a folder
// laid out as SkyPilot keeps it (~/.sky/catalogs/v7/<cloud>/vms.csv) or as the shipped snapshot names its files
// (<cloud>_vms.csv), or one such file, read into the same offers a spotsim-gpu-offers catalogue holds. Preemption
// sources are the shipped catalogue's defaults (gpu_offers.json); clouds without one are on demand only.
#include <string>

#include "app/advise/gpu_offer_catalogue.hpp"

namespace spotsim {

struct SkyPilotCatalogueOptions {
  std::string date;  // the prices' date for every offer; empty: "not stated" (a vms.csv carries none)
  std::string note;  // appended to the catalogue's description
};

// Whether `path` names a SkyPilot catalogue rather than a spotsim-gpu-offers file: a directory, or a *.csv file.
bool is_skypilot_catalogue(const std::string& path);

// The cloud a vms.csv belongs to, from its name: "aws_vms.csv" or ".../aws/vms.csv" -> "aws". InputError saying
// how to name the file otherwise.
std::string skypilot_cloud_of(const std::string& file);

// Every <cloud>/vms.csv and <cloud>_vms.csv of a directory (common_*.csv and other files ignored), or the one file.
// InputError for a directory with none, two files for one cloud, or any bad row (file, line and column named).
GpuOfferCatalogue read_skypilot_catalogue(const std::string& path, const SkyPilotCatalogueOptions& options);

}  // namespace spotsim

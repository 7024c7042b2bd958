#pragma once
// The GCP H100 folder of the SkyNomad artifact (Li et al., "SkyNomad: On Using Multi-Region Spot Instances to
// Minimize AI Batch Job Cost", NSDI'27; ../shared/data/preemption/skynomad-multi-region/gcp-h100-13-zones/):
// one `<zone>_h100_16.json` per zone, {"metadata": {gap_seconds, start_time, zone, price_info}, "data": [...],
// "prices": [...]}, all on one aligned clock.
// The conventions of its files (1 = unavailable, 8-GPU prices) are handled in skynomad_gcp_zone_file.hpp.
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_skynomad_gcp(const std::string& dir, const ImportOptions& options);

}  // namespace spotsim

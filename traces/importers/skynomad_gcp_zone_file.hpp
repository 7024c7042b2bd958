#pragma once
// One `<zone>_h100_16.json` of the SkyNomad GCP H100 folder (Li et al., NSDI'27; ../shared/data/preemption/
// skynomad-multi-region/gcp-h100-13-zones/): the zone with its place, instance, prices and 0/1 availability, and
// the file's clock. Read by the binary importer (skynomad_gcp_importer) and, for the prices only, by the capacity
// count importer (skynomad_gcp_counts_importer), so that both traces price a zone identically.
//
// Conventions of that data, handled here: `data` is 1 = UNAVAILABLE (the opposite of the Can't Be Late files);
// `price_info.price`, `on_demand_price` and `prices` are USD/h of an 8-GPU a3-highgpu-8g while the probes launched
// 1-GPU a3-highgpu-1g instances, so every price is divided by 8 (the GPU, CPU and RAM components all scale with
// the GPU count; checked against gcp-price-cache/ in tests/traces/multi_region_importer_tests.cpp).
#include <cstddef>
#include <string>

#include "model/market/spot_market.hpp"

namespace spotsim {

inline constexpr const char* kSkyNomadGcpSuffix = "_h100_16.json";
// Where both GCP H100 traces come from (provenance.source without the data's path).
inline constexpr const char* kSkyNomadSource =
    "SkyNomad artifact (Li et al., NSDI'27, arXiv 2601.06520), github.com/andylizf/skynomad-artifact commit 62b9aaa, ";

struct SkyNomadGcpZoneFile {
  Zone zone;  // region, continent, a3-highgpu-1g, H100 x1, per-instance prices, availability (no notice set)
  Millis tick = 0;
  std::string start_time;  // metadata.start_time as written
  std::size_t ticks = 0;
};

// InputError naming `path` and the field for anything malformed.
SkyNomadGcpZoneFile read_skynomad_gcp_zone_file(const std::string& path);

}  // namespace spotsim

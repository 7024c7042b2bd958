#pragma once
// The GCP H100 folder of the SkyNomad artifact (Li et al., "SkyNomad: On Using Multi-Region Spot Instances to
// Minimize AI Batch Job Cost", NSDI'27; ../shared/data/preemption/skynomad-multi-region/gcp-h100-13-zones/):
// one `<zone>_h100_16.json` per zone, {"metadata": {gap_seconds, start_time, zone, price_info}, "data": [...],
// "prices": [...]}, all on one aligned clock.
//
// Conventions of that data, handled here: `data` is 1 = UNAVAILABLE (the opposite of the Can't Be Late files);
// `price_info.price`, `on_demand_price` and `prices` are USD/h of an 8-GPU a3-highgpu-8g while the probes launched
// 1-GPU a3-highgpu-1g instances, so every price is divided by 8 (the GPU, CPU and RAM components all scale with
// the GPU count; checked against gcp-price-cache/ in tests/traces/multi_region_importer_tests.cpp).
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_skynomad_gcp(const std::string& dir, const ImportOptions& options);

}  // namespace spotsim

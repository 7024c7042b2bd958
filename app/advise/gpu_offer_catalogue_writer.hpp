#pragma once
// A catalogue as a spotsim-gpu-offers file (docs/advise.md#catalogue): what `advise --write-catalogue` writes from
// a SkyPilot catalogue, so that it can be shipped and read back by name. Deterministic: the same catalogue gives
// the same bytes.
#include <string>

#include "app/advise/gpu_offer_catalogue.hpp"

namespace spotsim {

// The file's text: the preemption sources the offers use, copied as written from `sources_file` (a
// spotsim-gpu-offers file that defines them, normally the shipped gpu_offers.json), then one offer per line.
std::string gpu_offer_catalogue_text(const GpuOfferCatalogue& catalogue, const std::string& sources_file);

}  // namespace spotsim

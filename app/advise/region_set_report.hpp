#pragma once
// Renders a RegionSetReport (columns documented in docs/advise.md#region-sets): a ranked table for people, JSON
// (manifest, recommendation, greedy path, rows) and CSV (one row per region set) for programs.
#include <string>

#include "app/advise/region_sets.hpp"

namespace spotsim {

std::string region_set_table(const RegionSetReport& report);
std::string region_set_json(const RegionSetReport& report);
std::string region_set_csv(const RegionSetReport& report);

}  // namespace spotsim

#pragma once
// How outputs say what regret is measured against: the offline optimum's grid and whether the optimum is exact on it
// or a lower bound (optimum/window_optimum.hpp). simulate puts it in its manifest (so in every output format) and
// under its table; sweep per configuration in summary.json and once in summary.md (docs/outputs.md).
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "optimum/window_optimum_grid.hpp"

namespace spotsim {

// {"exact": bool, "grid_s": seconds}
nlohmann::json optimum_grid_json(const WindowOptimumGrid& grid);
// InputError naming `file` and `field` unless `j` is what optimum_grid_json writes.
WindowOptimumGrid optimum_grid_from_json(const nlohmann::json& j, const std::string& file, const std::string& field);

// One line for people, e.g. "offline optimum: exact on its 60 s grid".
std::string optimum_grid_line(const WindowOptimumGrid& grid);

}  // namespace spotsim

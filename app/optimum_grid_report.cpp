#include "app/optimum_grid_report.hpp"

#include <nlohmann/json.hpp>

#include "base/duration.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace {
constexpr double kMaxGridSeconds = 1e7;  // about 116 days: no optimum's grid is coarser than its tick
}  // namespace

nlohmann::json optimum_grid_json(const WindowOptimumGrid& grid) {
  return {{"exact", grid.exact}, {"grid_s", to_seconds(grid.grid)}};
}

WindowOptimumGrid optimum_grid_from_json(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_object() || !j.contains("exact") || !j["exact"].is_boolean() || !j.contains("grid_s") ||
      !j["grid_s"].is_number() || !(j["grid_s"].get<double>() > 0) || j["grid_s"].get<double>() > kMaxGridSeconds) {
    throw InputError(file + ": field '" + field +
                     "': expected {\"exact\": true or false, \"grid_s\": seconds in (0, 1e7]}");
  }
  return {millis_from_seconds(j["grid_s"].get<double>()), j["exact"].get<bool>()};
}

std::string optimum_grid_line(const WindowOptimumGrid& grid) {
  const std::string step = format_duration(grid.grid);
  if (grid.exact) return "offline optimum: exact on its " + step + " grid";
  return "offline optimum: a lower bound on its " + step +
         " grid (checkpoint transfer times rounded down to it; docs/multi-region-optimum.md)";
}

}  // namespace spotsim

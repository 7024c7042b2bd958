#pragma once
// The CSV forms of advise's reports: one row per JSON object, the named columns in order (null -> empty, booleans
// 1/0, numbers as the tables print them, text quoted where CSV needs it).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace spotsim {

std::string csv_of_json_rows(const std::vector<std::string>& columns, const std::vector<nlohmann::json>& rows);

}  // namespace spotsim

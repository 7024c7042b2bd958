#include "app/advise/json_rows_csv.hpp"

#include "app/report_writer.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string csv_cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number()) return format_number(v.get<double>());
  const std::string text = v.get<std::string>();
  if (!csv_needs_quoting(text)) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string csv_of_json_rows(const std::vector<std::string>& columns, const std::vector<nlohmann::json>& rows) {
  std::string out;
  // Appending piecewise (not "," + cell) also keeps GCC 12's -Wrestrict false positive on operator+ away.
  const auto append_row = [&out](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out += ',';
      out += cells[i];
    }
    out += '\n';
  };
  append_row(columns);
  for (const nlohmann::json& row : rows) {
    std::vector<std::string> cells;
    for (const std::string& name : columns) cells.push_back(csv_cell(row.at(name)));
    append_row(cells);
  }
  return out;
}

}  // namespace spotsim

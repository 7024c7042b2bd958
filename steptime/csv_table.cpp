#include "steptime/csv_table.hpp"

#include <algorithm>
#include <charconv>

#include "base/errors.hpp"
#include "base/input_file.hpp"
#include "base/text_lines.hpp"

namespace spotsim {

CsvTable CsvTable::read(const std::string& path) {
  // Through the one CSV reader and the one bounded reader of input files: a table is never read past
  // kMaxInputBytes.
  TextLines lines(read_input_file(path), path);
  CsvTable table;
  table.path_ = path;
  if (!lines.next(table.header_)) throw InputError(path + ": empty CSV file; expected a header row");
  std::vector<std::string> fields;
  while (lines.next(fields)) {
    if (fields.size() != table.header_.size()) {
      throw InputError(path + ":" + std::to_string(lines.line_number()) + ": expected " +
                       std::to_string(table.header_.size()) + " fields like the header, got " +
                       std::to_string(fields.size()));
    }
    table.rows_.push_back(fields);
    table.lines_.push_back(lines.line_number());
  }
  return table;
}

bool CsvTable::has_column(const std::string& name) const {
  return std::find(header_.begin(), header_.end(), name) != header_.end();
}

std::size_t CsvTable::column(const std::string& name) const {
  const auto it = std::find(header_.begin(), header_.end(), name);
  if (it == header_.end()) throw InputError(path_ + ": missing column '" + name + "'");
  return static_cast<std::size_t>(it - header_.begin());
}

double CsvTable::number(std::size_t row, std::size_t column) const {
  const std::string& t = rows_[row][column];
  double value = 0.0;
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (error != std::errc() || end != t.data() + t.size()) {
    throw InputError(path_ + ":" + std::to_string(lines_[row]) + ": column '" + header_[column] +
                     "': expected a number, got '" + t + "'");
  }
  return value;
}

}  // namespace spotsim

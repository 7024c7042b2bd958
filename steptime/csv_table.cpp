#include "steptime/csv_table.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "base/errors.hpp"
#include "base/input_file.hpp"

namespace spotsim {

namespace {

// Splits `text` into records of fields; quotes may span commas, doubled quotes are literal quotes, and
// newlines inside quotes belong to the field.
std::vector<std::vector<std::string>> parse_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field.push_back('"');
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field.push_back(c);
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
      }
      record.clear();
      field.clear();
      any = false;
    } else {
      field.push_back(c);
      any = true;
    }
  }
  if (any || !field.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace

CsvTable CsvTable::read(const std::string& path) {
  // Through the one bounded reader of input files (base/input_file.hpp): a table is never read past kMaxInputBytes.
  auto records = parse_records(read_input_file(path));
  if (records.empty()) throw InputError(path + ": empty CSV file; expected a header row");
  CsvTable table;
  table.path_ = path;
  table.header_ = std::move(records.front());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != table.header_.size()) {
      throw InputError(path + ": row " + std::to_string(r + 1) + ": expected " + std::to_string(table.header_.size()) +
                       " fields like the header, got " + std::to_string(records[r].size()));
    }
    table.rows_.push_back(std::move(records[r]));
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
    throw InputError(path_ + ": row " + std::to_string(row + 2) + ", column '" + header_[column] +
                     "': expected a number, got '" + t + "'");
  }
  return value;
}

}  // namespace spotsim

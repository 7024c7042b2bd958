#pragma once
// The measured tables used to calibrate and validate the step-time model, read by the one CSV reader
// (base/text_lines.hpp: quoted fields may hold commas, kernel names such as "void f<4, float>(int, float)").
#include <cstddef>
#include <string>
#include <vector>

namespace spotsim {

class CsvTable {
 public:
  // Throws InputError naming `path` if it cannot be read or a row has the wrong number of fields.
  static CsvTable read(const std::string& path);

  const std::string& path() const { return path_; }
  std::size_t rows() const { return rows_.size(); }
  // Throws InputError naming the file and the missing column.
  std::size_t column(const std::string& name) const;
  bool has_column(const std::string& name) const;
  const std::string& text(std::size_t row, std::size_t column) const { return rows_[row][column]; }
  // Throws InputError naming the file, row and column if the field is not a number.
  double number(std::size_t row, std::size_t column) const;

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> lines_;  // each row's line in the file, for messages
};

}  // namespace spotsim

#pragma once
// The one CSV reader: line by line, with the position of every value, so that an error names
// "file:line: field 'x': expected ..., got ...". Used by the trace importers, the campaign's job stream and the
// step-time tables (steptime/csv_table.hpp).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace spotsim {

class TextLines {
 public:
  // `text` is the whole file; `file` names it in messages. Handles \n and \r\n endings.
  TextLines(std::string text, std::string file);

  // The next non-blank line, split at commas with surrounding spaces trimmed; false at the end of the file. A field
  // that starts with a quote runs to the closing quote and may hold commas ("void f<4, float>(int)"); a doubled
  // quote in it is one quote (RFC 4180, within a line: a field never spans lines). InputError for a quote that
  // is never closed or text after a closing quote.
  bool next(std::vector<std::string>& fields);
  std::size_t line_number() const { return line_number_; }
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const std::string& field, const std::string& expected, const std::string& got) const;
  double number(const std::string& text, const std::string& field, double min, double max) const;
  long long integer(const std::string& text, const std::string& field, long long min, long long max) const;

 private:
  void split(std::string_view line, std::vector<std::string>& fields) const;

  std::string text_;
  std::string file_;
  std::size_t position_ = 0;
  std::size_t line_number_ = 0;
};

std::string_view trim(std::string_view text);
// Reads a whole file (at most kMaxInputBytes, base/input_file.hpp); InputError naming it if it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace spotsim

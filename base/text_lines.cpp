#include "base/text_lines.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "base/errors.hpp"
#include "base/input_file.hpp"

namespace spotsim {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::string read_text_file(const std::string& path) { return read_input_file(path); }

TextLines::TextLines(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {}

bool TextLines::next(std::vector<std::string>& fields) {
  while (position_ < text_.size()) {
    const auto end = text_.find('\n', position_);
    const std::size_t stop = end == std::string::npos ? text_.size() : end;
    const std::string_view line = trim(std::string_view(text_).substr(position_, stop - position_));
    position_ = stop + 1;
    ++line_number_;
    if (line.empty()) continue;
    split(line, fields);
    return true;
  }
  return false;
}

void TextLines::split(std::string_view line, std::vector<std::string>& fields) const {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
    if (start < line.size() && line[start] == '"') {  // a quoted field
      std::string field;
      std::size_t i = start + 1;
      for (;; ++i) {
        if (i >= line.size()) fail("field " + std::to_string(fields.size() + 1), "a closing quote", std::string(line));
        if (line[i] != '"') {
          field.push_back(line[i]);
        } else if (i + 1 < line.size() && line[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          break;
        }
      }
      fields.push_back(std::move(field));
      const std::size_t comma = line.find(',', i + 1);
      if (!trim(line.substr(i + 1, comma == std::string_view::npos ? std::string_view::npos : comma - i - 1)).empty()) {
        fail("field " + std::to_string(fields.size()), "a comma after the closing quote", std::string(line));
      }
      if (comma == std::string_view::npos) return;
      start = comma + 1;
      continue;
    }
    const auto comma = line.find(',', start);
    fields.emplace_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

void TextLines::fail(const std::string& field, const std::string& expected, const std::string& got) const {
  std::string shown = got.size() > 40 ? got.substr(0, 37) + "..." : got;
  throw InputError(file_ + ":" + std::to_string(line_number_) + ": " + field + ": expected " + expected + ", got '" +
                   shown + "'");
}

double TextLines::number(const std::string& text, const std::string& field, double min, double max) const {
  std::ostringstream expected;
  expected << "a number in [" << min << ", " << max << "]";
  if (text.empty()) fail(field, expected.str(), text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value) || value < min || value > max) {
    fail(field, expected.str(), text);
  }
  return value;
}

long long TextLines::integer(const std::string& text, const std::string& field, long long min, long long max) const {
  const std::string expected = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (text.empty()) fail(field, expected, text);
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size() || errno == ERANGE || value < min || value > max) fail(field, expected, text);
  return value;
}

}  // namespace spotsim

#include "base/json_writer.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"

namespace spotsim {

void JsonWriter::newline_indent(std::size_t depth) {
  out_ += '\n';
  out_.append(2 * (depth + static_cast<std::size_t>(base_depth_)), ' ');
}

// Inside an array a value starts its own line; after a key it follows ": " on the key's line.
void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  assert(!level.is_object && "a value inside an object needs a key first");
  if (level.any) out_ += ',';
  level.any = true;
  newline_indent(levels_.size());
}

JsonWriter& JsonWriter::key(std::string_view name) {
  assert(!levels_.empty() && levels_.back().is_object && !after_key_);
  Level& level = levels_.back();
  assert((!level.any || level.last_key < name) && "nlohmann::json sorts keys: write them in order");
#ifndef NDEBUG
  level.last_key.assign(name);
#endif
  if (level.any) out_ += ',';
  level.any = true;
  newline_indent(levels_.size());
  // Keys are the writer's own identifiers (metric and field names): written as they are, no escaping to check.
  assert(std::all_of(name.begin(), name.end(), [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; }));
  out_ += '"';
  out_ += name;
  out_ += "\": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  levels_.push_back(Level{true, false, {}});
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  levels_.push_back(Level{false, false, {}});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  assert(!levels_.empty() && levels_.back().is_object && !after_key_);
  const bool any = levels_.back().any;
  levels_.pop_back();
  if (any) newline_indent(levels_.size());
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  assert(!levels_.empty() && !levels_.back().is_object);
  const bool any = levels_.back().any;
  levels_.pop_back();
  if (any) newline_indent(levels_.size());
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  if (!std::isfinite(number)) {
    out_ += "null";
    return *this;
  }
  // nlohmann::json's own number formatting (Grisu2, shortest round trip, ".0" on whole numbers), so the bytes
  // match its dump exactly. A summary repeats numbers (min = mean = max of a constant metric, sd 0): the last
  // one's text is kept. Compared bit for bit, so 0.0 and -0.0 stay apart.
  std::uint64_t bits;
  std::memcpy(&bits, &number, sizeof bits);
  if (last_number_length_ == 0 || bits != last_number_bits_) {
    char* end = nlohmann::detail::to_chars(last_number_, last_number_ + sizeof last_number_, number);
    last_number_length_ = static_cast<std::size_t>(end - last_number_);
    last_number_bits_ = bits;
  }
  out_.append(last_number_, last_number_length_);
  return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t number) {
  before_value();
  char buffer[24];
  out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, number).ptr);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  before_value();
  char buffer[24];
  out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, number).ptr);
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  write_string(text);
  return *this;
}

void JsonWriter::write_string(std::string_view text) {
  // Printable ASCII without quote or backslash is written as it is; anything else (escapes, UTF-8, bad bytes)
  // goes through json_text, the one place that decides how spotsim escapes.
  for (const char c : text) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
      out_ += json_text(nlohmann::json(std::string(text)));
      return;
    }
  }
  out_ += '"';
  out_ += text;
  out_ += '"';
}

}  // namespace spotsim

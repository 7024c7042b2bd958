#pragma once
// Typed access to the fields of a JSON document with error messages that name the file, the field's full path
// and what was expected: "traces/x.json: field 'zones[0].spot.price_per_hour': expected a number >= 0, got "abc"".
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spotsim {

// The deepest nesting of arrays and objects accepted: no spotsim input needs more than a handful of levels, and
// code that walks a document (printing a value, comparing, copying) recurses once per level, so 100,000 levels of
// '[' would overflow the stack. docs/trace-format.md#limits.
inline constexpr std::size_t kMaxJsonNesting = 512;

// Every JSON input goes through these two (files read whole with the size bound of base/input_file.hpp):
// InputError naming `file` if the text is not valid JSON or is nested deeper than kMaxJsonNesting.
nlohmann::json parse_json_text(std::string_view text, const std::string& file);
nlohmann::json read_json_file(const std::string& path);

class JsonFields {
 public:
  JsonFields(const nlohmann::json& object, std::string file, std::string path);

  const std::string& file() const { return file_; }
  std::string path_of(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  [[noreturn]] void fail(const std::string& key, const std::string& expected) const;
  [[noreturn]] void fail_value(const std::string& key, const std::string& expected, const nlohmann::json& got) const;

  bool has(const std::string& key) const;
  const nlohmann::json& raw(const std::string& key) const;

  double number(const std::string& key, double min, double max) const;
  std::optional<double> optional_number(const std::string& key, double min, double max) const;
  std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max) const;
  std::string string(const std::string& key) const;
  std::string optional_string(const std::string& key, const std::string& fallback = "") const;
  bool boolean(const std::string& key, bool fallback) const;
  JsonFields object(const std::string& key) const;
  std::vector<double> numbers(const std::string& key, double min, double max) const;
  const nlohmann::json& array(const std::string& key) const;
  // Fails on any key not in `known`: a misspelt field must not be silently ignored.
  void reject_unknown(const std::vector<std::string>& known) const;

 private:
  const nlohmann::json& object_;
  std::string file_;
  std::string path_;
};

// A value as quoted in an error message: at most about 40 characters, built without walking more of the value
// than it shows (a huge or deep value costs no more than a small one).
std::string describe_json(const nlohmann::json& value);

}  // namespace spotsim

#include "base/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/errors.hpp"
#include "base/input_file.hpp"

namespace spotsim {

bool JsonFields::has(const std::string& key) const { return object_.contains(key) && !object_.at(key).is_null(); }

namespace {

// The nesting depth is measured on the text before parsing: a scan of brackets outside strings, exact for valid
// JSON (invalid JSON is refused by the parser anyway, which itself does not recurse).
void check_json_nesting(std::string_view text, const std::string& file) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting) {
        throw InputError(file + ": JSON nested deeper than " + std::to_string(kMaxJsonNesting) +
                         " levels of [ and { (at byte " + std::to_string(i) + "); no spotsim input nests that deep");
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

constexpr std::size_t kDescribedLength = 40;

// The first bytes of `text` at a UTF-8 character boundary.
std::string_view utf8_prefix(std::string_view text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

// A string as JSON writes it (quoted, escaped), cut after kDescribedLength bytes.
void append_quoted(const std::string& text, std::string& out) {
  const std::string_view shown = utf8_prefix(text, kDescribedLength);
  out += nlohmann::json(std::string(shown)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (shown.size() < text.size()) out += "...";
}

// Appends a compact rendering of `value` until `out` is longer than kDescribedLength, descending at most a few
// levels: the caller cuts the result, so anything past the limit would never be shown.
void describe_into(const nlohmann::json& value, std::string& out, int levels) {
  if (out.size() > kDescribedLength) return;
  if (value.is_string()) {
    append_quoted(value.get_ref<const std::string&>(), out);
    return;
  }
  if (!value.is_structured()) {
    out += value.dump();
    return;
  }
  const bool object = value.is_object();
  out += object ? '{' : '[';
  if (levels == 0 && !value.empty()) out += "...";
  bool first = true;
  for (auto it = value.begin(); levels > 0 && it != value.end() && out.size() <= kDescribedLength; ++it) {
    if (!first) out += ',';
    first = false;
    if (object) {
      append_quoted(it.key(), out);
      out += ':';
    }
    describe_into(*it, out, levels - 1);
  }
  out += object ? '}' : ']';
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& file) {
  check_json_nesting(text, file);
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file + ": not valid JSON (byte " + std::to_string(e.byte) + "): " + e.what());
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double ("1e4444") is out_of_range, not a parse_error (found by fuzzing).
    throw InputError(file + ": not valid JSON: " + e.what());
  }
}

nlohmann::json read_json_file(const std::string& path) { return parse_json_text(read_input_file(path), path); }

std::string describe_json(const nlohmann::json& value) {
  // A NaN or an infinity (from a command-line option or the Python API) would otherwise read as null.
  if (value.is_number_float() && std::isnan(value.get<double>())) return "NaN (not a number)";
  if (value.is_number_float() && std::isinf(value.get<double>())) {
    return value.get<double>() > 0 ? "infinity" : "-infinity";
  }
  std::string text;
  describe_into(value, text, 4);
  if (text.size() > kDescribedLength) text = std::string(utf8_prefix(text, kDescribedLength - 3)) + "...";
  return text;
}

JsonFields::JsonFields(const nlohmann::json& object, std::string file, std::string path)
    : object_(object), file_(std::move(file)), path_(std::move(path)) {
  if (!object_.is_object()) {
    throw InputError(file_ + ": " + (path_.empty() ? std::string("the document") : "field '" + path_ + "'") +
                     ": expected a JSON object, got " + describe_json(object_));
  }
}

void JsonFields::fail(const std::string& key, const std::string& expected) const {
  throw InputError(file_ + ": field '" + path_of(key) + "': expected " + expected);
}

void JsonFields::fail_value(const std::string& key, const std::string& expected, const nlohmann::json& got) const {
  throw InputError(file_ + ": field '" + path_of(key) + "': expected " + expected + ", got " + describe_json(got));
}

const nlohmann::json& JsonFields::raw(const std::string& key) const {
  if (!has(key)) fail(key, "a value (the field is missing)");
  return object_.at(key);
}

namespace {
std::string range_text(double min, double max) {
  std::ostringstream out;
  if (std::isinf(max))
    out << "a number >= " << min;
  else
    out << "a number in [" << min << ", " << max << "]";
  return out.str();
}
}  // namespace

double JsonFields::number(const std::string& key, double min, double max) const {
  const auto& v = raw(key);
  if (!v.is_number()) fail_value(key, range_text(min, max), v);
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < min || x > max) fail_value(key, range_text(min, max), v);
  return x;
}

std::optional<double> JsonFields::optional_number(const std::string& key, double min, double max) const {
  if (!has(key)) return std::nullopt;
  return number(key, min, max);
}

std::int64_t JsonFields::integer(const std::string& key, std::int64_t min, std::int64_t max) const {
  const auto& v = raw(key);
  const std::string expected = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (!v.is_number_integer()) fail_value(key, expected, v);
  const auto x = v.get<std::int64_t>();
  if (x < min || x > max) fail_value(key, expected, v);
  return x;
}

std::string JsonFields::string(const std::string& key) const {
  const auto& v = raw(key);
  if (!v.is_string()) fail_value(key, "a string", v);
  return v.get<std::string>();
}

std::string JsonFields::optional_string(const std::string& key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

bool JsonFields::boolean(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const auto& v = object_.at(key);
  if (!v.is_boolean()) fail_value(key, "true or false", v);
  return v.get<bool>();
}

JsonFields JsonFields::object(const std::string& key) const {
  const auto& v = raw(key);
  if (!v.is_object()) fail_value(key, "a JSON object", v);
  return JsonFields(v, file_, path_of(key));
}

const nlohmann::json& JsonFields::array(const std::string& key) const {
  const auto& v = raw(key);
  if (!v.is_array()) fail_value(key, "a JSON array", v);
  return v;
}

std::vector<double> JsonFields::numbers(const std::string& key, double min, double max) const {
  const auto& v = array(key);
  std::vector<double> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto& e = v[i];
    const std::string k = key + "[" + std::to_string(i) + "]";
    if (!e.is_number()) fail_value(k, range_text(min, max), e);
    const double x = e.get<double>();
    if (!std::isfinite(x) || x < min || x > max) fail_value(k, range_text(min, max), e);
    out.push_back(x);
  }
  return out;
}

void JsonFields::reject_unknown(const std::vector<std::string>& known) const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(file_ + ": field '" + path_of(it.key()) + "': unknown field; expected one of: " + list);
    }
  }
}

}  // namespace spotsim

#include "traces/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/errors.hpp"
#include "sim/file_checks.hpp"

namespace spotsim {

nlohmann::json read_json_file(const std::string& path) {
  // A directory opens as a stream whose first read throws std::ios_base::failure from inside the parser.
  if (const std::string problem = input_file_problem(path); !problem.empty()) throw InputError(path + ": " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file for reading");
  try {
    return nlohmann::json::parse(in);
  } catch (const std::ios_base::failure& e) {
    throw InputError(path + ": cannot read the file: " + e.what());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": not valid JSON (byte " + std::to_string(e.byte) + "): " + e.what());
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double ("1e4444") is out_of_range, not a parse_error (found by fuzzing).
    throw InputError(path + ": not valid JSON: " + e.what());
  }
}

std::string describe_json(const nlohmann::json& value) {
  // dump() writes a NaN or an infinity (from a command-line option or the Python API) as null.
  if (value.is_number_float() && std::isnan(value.get<double>())) return "NaN (not a number)";
  if (value.is_number_float() && std::isinf(value.get<double>())) {
    return value.get<double>() > 0 ? "infinity" : "-infinity";
  }
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
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
  if (std::isinf(max)) out << "a number >= " << min;
  else out << "a number in [" << min << ", " << max << "]";
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

#include "policies/policy_params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "base/duration.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace {
// 0.5 rather than std::to_string's 0.500000.
std::string number_text(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}
}  // namespace

PolicyParams PolicyParams::parse(const std::string& spec, const std::string& option) {
  PolicyParams p;
  p.option_ = option;
  p.spec_ = spec;
  const auto colon = spec.find(':');
  p.name_ = spec.substr(0, colon);
  if (p.name_.empty()) throw InputError(option + " '" + spec + "': expected a policy name, e.g. adaptive");
  if (colon == std::string::npos) return p;
  const std::string rest = spec.substr(colon + 1);
  if (!rest.empty() && rest.find('=') == std::string::npos) {  // "schedule:plan.csv": the unnamed argument
    p.values_.emplace(kPositional, rest);
    return p;
  }
  std::size_t pos = 0;
  while (pos <= rest.size()) {
    const auto comma = rest.find(',', pos);
    const std::string item = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      throw InputError(option + " '" + spec + "': expected parameters as key=value separated by commas, got '" + item +
                       "'");
    }
    if (!p.values_.emplace(item.substr(0, eq), item.substr(eq + 1)).second) {
      throw InputError(option + " '" + spec + "': parameter '" + item.substr(0, eq) + "' given twice");
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return p;
}

std::string PolicyParams::where(const std::string& key) const {
  return option_ + " '" + spec_ + "': parameter '" + key + "'";
}

const std::string* PolicyParams::find(const std::string& key) const {
  used_.insert(key);
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

Millis PolicyParams::duration(const std::string& key, Millis fallback) const {
  const std::string* v = find(key);
  return v ? parse_duration(*v, where(key)) : fallback;
}

Millis PolicyParams::positive_duration(const std::string& key, Millis fallback) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  const Millis d = parse_duration(*v, where(key));
  if (d <= 0) throw InputError(where(key) + ": expected a duration > 0, got '" + *v + "'");
  return d;
}

double PolicyParams::number(const std::string& key, double fallback, double min, double max) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || !std::isfinite(x) || x < min || x > max) {
    throw InputError(where(key) + ": expected a number in [" + number_text(min) + ", " + number_text(max) + "], got '" +
                     *v + "'");
  }
  return x;
}

int PolicyParams::integer(const std::string& key, int fallback, int min, int max) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(v->c_str(), &end, 10);
  if (end == v->c_str() || *end != '\0' || errno == ERANGE || x < min || x > max) {
    throw InputError(where(key) + ": expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "], got '" + *v + "'");
  }
  return static_cast<int>(x);
}

bool PolicyParams::flag(const std::string& key, bool fallback) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  if (*v == "true" || *v == "1" || *v == "yes") return true;
  if (*v == "false" || *v == "0" || *v == "no") return false;
  throw InputError(where(key) + ": expected true or false, got '" + *v + "'");
}

std::string PolicyParams::text(const std::string& key, const std::string& fallback) const {
  const std::string* v = find(key);
  return v ? *v : fallback;
}

void PolicyParams::reject_unused() const {
  for (const auto& [key, value] : values_) {
    if (used_.count(key)) continue;
    if (key == kPositional) {
      throw InputError(option_ + " '" + spec_ + "': expected parameters as key=value separated by commas, got '" +
                       value + "'");
    }
    // The getters the policy called are the parameters it takes.
    std::string known;
    for (const std::string& k : used_) {
      if (!k.empty()) known += (known.empty() ? "" : ", ") + k;
    }
    throw InputError(option_ + " '" + spec_ + "': unknown parameter '" + key + "'; " +
                     (known.empty() ? name_ + " takes no parameters" : name_ + " takes: " + known));
  }
}

}  // namespace spotsim

#include "app/sweep/metric_requirement.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include "app/sweep/configuration_samples.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

MetricRequirement parse_metric_requirement(const std::string& text, const std::string& option) {
  const std::string where = option + " '" + text + "'";
  const std::string expected = "expected METRIC OP VALUE with OP one of >=, <=, >, <, ==, e.g. deadline_met>=1.0";
  // Two-character operators first, so that ">=" is not read as ">" followed by "=1.0".
  static const std::array<std::pair<const char*, Comparison>, 5> kOperators = {{{">=", Comparison::kAtLeast},
                                                                                {"<=", Comparison::kAtMost},
                                                                                {"==", Comparison::kEqual},
                                                                                {">", Comparison::kGreater},
                                                                                {"<", Comparison::kLess}}};
  const auto at = text.find_first_of("<>=!");
  if (at == std::string::npos) throw InputError(where + ": " + expected);
  MetricRequirement requirement;
  requirement.text = text;
  std::size_t length = 0;
  for (const auto& [symbol, comparison] : kOperators) {
    if (text.compare(at, std::char_traits<char>::length(symbol), symbol) == 0) {
      requirement.comparison = comparison;
      length = std::char_traits<char>::length(symbol);
      break;
    }
  }
  if (length == 0) throw InputError(where + ": " + expected);
  requirement.metric = trimmed(text.substr(0, at));
  const std::string number = trimmed(text.substr(at + length));
  if (requirement.metric.empty() || number.empty()) throw InputError(where + ": " + expected);
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), requirement.value);
  if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(requirement.value)) {
    throw InputError(where + ": expected a finite number after the operator, found '" + number + "'");
  }
  metric_index(requirement.metric, where);  // the results' metric names; the message lists them
  return requirement;
}

bool requirement_met(const MetricRequirement& requirement, double mean) {
  switch (requirement.comparison) {
    case Comparison::kAtLeast: return mean >= requirement.value;
    case Comparison::kAtMost: return mean <= requirement.value;
    case Comparison::kGreater: return mean > requirement.value;
    case Comparison::kLess: return mean < requirement.value;
    case Comparison::kEqual: return mean == requirement.value;
  }
  return false;  // unreachable: every enumerator is handled above
}

}  // namespace spotsim

#include "base/count_text.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "base/errors.hpp"

namespace spotsim {

double parse_count(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string suffix = used == 0 ? "?" : text.substr(used);
  const double scale = suffix.empty()                   ? 1.0
                       : suffix == "K" || suffix == "k" ? 1e3
                       : suffix == "M"                  ? 1e6
                       : suffix == "B" || suffix == "G" ? 1e9
                       : suffix == "T"                  ? 1e12
                                                        : -1.0;
  if (used == 0 || scale < 0.0 || !std::isfinite(value * scale)) {
    throw InputError(what + ": expected a count such as 25.6M, 1.3B or 7e9, got '" + text + "'");
  }
  return value * scale;
}

std::string format_count(double count) {
  static constexpr std::pair<double, const char*> kSuffixes[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
  double scaled = count;
  const char* suffix = "";
  for (const auto& [scale, name] : kSuffixes) {
    if (std::abs(count) >= scale) {
      scaled = count / scale;
      suffix = name;
      break;
    }
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3g%s", scaled, suffix);
  return buffer;
}

}  // namespace spotsim

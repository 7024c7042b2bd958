#include "base/integer_text.hpp"

#include "base/errors.hpp"

namespace spotsim {

std::string integer_range_text(std::uint64_t min, std::uint64_t max) {
  return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

std::uint64_t parse_integer_in_range(const std::string& text, std::uint64_t min, std::uint64_t max,
                                     const std::string& what) {
  const auto refuse = [&] {
    const std::string shown = text.size() > 40 ? text.substr(0, 37) + "..." : text;
    return InputError(what + ": expected " + integer_range_text(min, max) + ", got '" + shown + "'");
  };
  if (text.empty()) throw refuse();
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') throw refuse();
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) throw refuse();  // beyond 2^64 - 1
    value = value * 10 + digit;
  }
  if (value < min || value > max) throw refuse();
  return value;
}

}  // namespace spotsim

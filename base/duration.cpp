#include "base/duration.hpp"

#include <cmath>
#include <cstdlib>

#include "base/errors.hpp"

namespace spotsim {

Millis parse_duration(const std::string& text, const std::string& what) {
  return static_cast<Millis>(std::llround(parse_duration_ms(text, what)));
}

double parse_duration_ms(const std::string& text, const std::string& what) {
  const auto fail = [&]() -> double {
    throw InputError(what + ": expected a duration such as 30m, 2h, 90s, 250ms or 1.5d, got '" + text + "'");
  };
  if (text.empty()) return fail();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(value) || value < 0) return fail();
  const std::string unit(end);
  double scale;
  if (unit == "ms")
    scale = 1.0;
  else if (unit == "s")
    scale = 1e3;
  else if (unit == "m" || unit == "min")
    scale = 6e4;
  else if (unit == "h")
    scale = 3.6e6;
  else if (unit == "d")
    scale = 8.64e7;
  else
    return fail();
  const double ms = value * scale;
  if (ms > kMaxDurationMs) return fail();
  return ms;
}

Millis checked_millis(double ms, const std::string& what) {
  if (!std::isfinite(ms) || ms < 0.0 || ms > kMaxDurationMs) {
    throw InputError(what + ": expected a duration of at most 1e15 ms (about 31,700 years), got " +
                     std::to_string(ms / 3.6e6) + " h");
  }
  return static_cast<Millis>(std::llround(ms));
}

std::string format_duration(Millis t) {
  if (t == kNever) return "never";
  if (t != 0 && t % kMillisPerDay == 0) return std::to_string(t / kMillisPerDay) + "d";
  if (t != 0 && t % kMillisPerHour == 0) return std::to_string(t / kMillisPerHour) + "h";
  if (t != 0 && t % kMillisPerMinute == 0) return std::to_string(t / kMillisPerMinute) + "m";
  if (t % kMillisPerSecond == 0) return std::to_string(t / kMillisPerSecond) + "s";
  return std::to_string(t) + "ms";
}

}  // namespace spotsim

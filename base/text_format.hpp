#pragma once
// Fixed-point formatting and column padding for the human-readable reports (tables, markdown): one definition for
// every report.
#include <cstdio>
#include <string>

namespace spotsim {

// A value that rounds to zero prints without a sign: "-0.00" (from -0.0 or -0.001) reads as a measured loss.
inline std::string format_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  if (buffer[0] == '-') {
    bool zero = true;
    for (const char* c = buffer + 1; *c != '\0'; ++c) zero = zero && (*c == '0' || *c == '.');
    if (zero) return buffer + 1;
  }
  return buffer;
}

// Decimals that show `value` with at least `significant` significant digits, and never fewer than `decimals`:
// 0.272 at (3, 3) -> 3, 0.0532 -> 4, 0.00271 -> 5; at most 9. A work-per-dollar of 0.003 printed with 3 decimals
// has one digit left to read.
inline int decimals_for(double value, int decimals, int significant) {
  const double magnitude = value < 0 ? -value : value;
  if (!(magnitude > 0.0) || magnitude >= 1e300) return decimals;
  int leading = 0;  // zeros between the point and the first significant digit
  for (double m = magnitude; m < 0.1 && leading < 9; m *= 10.0) ++leading;
  const int wanted = leading + significant;
  return wanted > decimals ? (wanted < 9 ? wanted : 9) : decimals;
}

// Dollars as the advice lines print them: cents below $100, whole dollars above.
inline std::string format_usd(double usd) {
  std::string text(1, '$');  // appended, not "$" + ...: GCC 12's -Wrestrict false positive on operator+
  text += format_fixed(usd, usd < 100 ? 2 : 0);
  return text;
}

// `text` widened with spaces to `width` characters (bytes), on the right (left-aligned, the default) or on the left
// (right-aligned numbers); text already as wide is left as it is.
enum class Align { kLeft, kRight };
inline std::string pad(std::string text, std::size_t width, Align align = Align::kLeft) {
  if (text.size() >= width) return text;
  if (align == Align::kRight) return std::string(width - text.size(), ' ') + text;
  text.append(width - text.size(), ' ');
  return text;
}

}  // namespace spotsim

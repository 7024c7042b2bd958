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

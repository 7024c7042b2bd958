#pragma once
// Fixed-point formatting for the human-readable reports (tables, markdown): one definition for every report.
#include <cstdio>
#include <string>

namespace spotsim {

inline std::string format_fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// Dollars as the advice lines print them: cents below $100, whole dollars above.
inline std::string format_usd(double usd) {
  std::string text(1, '$');  // appended, not "$" + ...: GCC 12's -Wrestrict false positive on operator+
  text += format_fixed(usd, usd < 100 ? 2 : 0);
  return text;
}

}  // namespace spotsim

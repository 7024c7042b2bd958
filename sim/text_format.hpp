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

}  // namespace spotsim

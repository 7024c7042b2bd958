#include "experiments/report/html_text.hpp"

#include <cmath>
#include <cstdio>

namespace spotsim {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string svg_number(double value) {
  if (!std::isfinite(value)) value = 0.0;
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", value);
  std::string s = text;
  if (s == "-0.00") s = "0.00";
  return s;
}

std::string display_number(double value, int decimals) {
  if (std::isnan(value)) return "\xE2\x80\x93";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string s = text;
  if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

}  // namespace spotsim

#include "app/report/html_text.hpp"

#include <cmath>
#include <cstdio>

#include "base/text_escape.hpp"

namespace spotsim {

std::string html_escape(std::string_view text) { return escape_markup(text, "&#39;"); }

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

std::string display_usd(double value) {
  // Appended, not "$" + ...: GCC 12 warns of an overlapping copy in operator+(const char*, string&&) (bug 105329).
  return std::string("$").append(display_number(value, 0));
}

std::string display_with_interval(double mean, double low, double high, int decimals) {
  if (std::isnan(mean)) return "\xE2\x80\x93";
  return display_number(mean, decimals) + " <span class=\"ci\">[" + display_number(low, decimals) + ", " +
         display_number(high, decimals) + "]</span>";
}

}  // namespace spotsim

#include "traces/importers/timestamps.hpp"

#include <cctype>

namespace spotsim {

long long days_from_civil(long long year, unsigned month, unsigned day) {
  // Shift the year to start in March so that the leap day is the last day of the year.
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const long long year_of_era = year - era * 400;                                          // [0, 399]
  const long long day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;  // [0, 365]
  const long long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

namespace {

// Reads exactly `count` digits at `pos`; -1 if they are not all digits.
long long digits(const std::string& s, std::size_t pos, std::size_t count) {
  if (pos + count > s.size()) return -1;
  long long value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

bool leap(long long year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

}  // namespace

std::optional<Millis> parse_timestamp(const std::string& s) {
  // Fixed positions: 0123456789012345678
  //                  YYYY-MM-DDTHH:MM:SS
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const long long year = digits(s, 0, 4), month = digits(s, 5, 2), day = digits(s, 8, 2);
  const long long hour = digits(s, 11, 2), minute = digits(s, 14, 2), second = digits(s, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 60) {
    return std::nullopt;
  }
  static constexpr int kDaysInMonth[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const long long month_days = kDaysInMonth[month - 1] + (month == 2 && leap(year) ? 1 : 0);
  if (day > month_days) return std::nullopt;
  std::size_t pos = 19;
  Millis millis = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    Millis scale = 100;
    std::size_t count = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      millis += (s[pos] - '0') * scale;  // digits beyond milliseconds are truncated
      scale /= 10;
      ++pos;
      ++count;
    }
    if (count == 0) return std::nullopt;
  }
  Millis offset_minutes = 0;
  if (pos < s.size()) {
    if (s[pos] == 'Z' && pos + 1 == s.size()) {
      ++pos;
    } else if ((s[pos] == '+' || s[pos] == '-') && pos + 6 == s.size() && s[pos + 3] == ':') {
      const long long oh = digits(s, pos + 1, 2), om = digits(s, pos + 4, 2);
      if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
      offset_minutes = (s[pos] == '+' ? 1 : -1) * (oh * 60 + om);
      pos += 6;
    } else {
      return std::nullopt;
    }
  }
  const long long days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const Millis local = ((days * 24 + hour) * 60 + minute) * kMillisPerMinute + second * kMillisPerSecond + millis;
  return local - offset_minutes * kMillisPerMinute;  // local time = UTC + offset
}

}  // namespace spotsim

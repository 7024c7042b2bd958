#pragma once
// Calendar timestamps as the cloud APIs write them, to milliseconds since the Unix epoch (UTC).
#include <optional>
#include <string>

#include "base/time.hpp"

namespace spotsim {

// ISO-8601 / RFC 3339 "YYYY-MM-DDTHH:MM:SS[.fff][Z|+HH:MM|-HH:MM]" (a space instead of 'T' is accepted; no offset
// means UTC). nullopt if the text is not such a timestamp or names an impossible date or time.
std::optional<Millis> parse_timestamp(const std::string& text);

// Days since 1970-01-01 of a proleptic Gregorian date (the "days from civil" construction of H. Hinnant,
// "chrono-Compatible Low-Level Date Algorithms", 2013), exact for every year of interest.
long long days_from_civil(long long year, unsigned month, unsigned day);

}  // namespace spotsim

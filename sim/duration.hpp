#pragma once
// Durations as users write them: "90s", "30m", "1.5h", "2d", "250ms". A bare number is rejected: the unit is the
// most common mistake in a simulation input.
#include <string>

#include "sim/time.hpp"

namespace spotsim {

// Throws InputError("<what>: expected a duration such as 30m, 2h or 90s, got '<text>'").
Millis parse_duration(const std::string& text, const std::string& what);
// The same syntax, in (fractional) milliseconds: for short durations such as step times ("95.38ms").
double parse_duration_ms(const std::string& text, const std::string& what);
std::string format_duration(Millis t);  // the shortest exact form: "2h", "90s", "1500ms"

}  // namespace spotsim

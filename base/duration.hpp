#pragma once
// Durations as users write them: "90s", "30m", "1.5h", "2d", "250ms". A bare number is rejected: the unit is the
// most common mistake in a simulation input.
#include <string>

#include "base/time.hpp"

namespace spotsim {

// The longest duration accepted anywhere (on the command line, or as a product such as steps x step time):
// 1e15 ms, about 31,700 years. Far below the overflow of integer milliseconds (9.2e18), so that sums of a few
// durations stay exact (docs/outputs.md#limits).
inline constexpr double kMaxDurationMs = 1e15;

// `ms` rounded to integer milliseconds; InputError("<what>: expected a duration of at most 1e15 ms ...") unless it
// is finite and in [0, kMaxDurationMs]. For durations computed from several inputs, checked before conversion.
Millis checked_millis(double ms, const std::string& what);

// Throws InputError("<what>: expected a duration such as 30m, 2h or 90s, got '<text>'").
Millis parse_duration(const std::string& text, const std::string& what);
// The same syntax, in (fractional) milliseconds: for short durations such as step times ("95.38ms").
double parse_duration_ms(const std::string& text, const std::string& what);
std::string format_duration(Millis t);  // the shortest exact form: "2h", "90s", "1500ms"

}  // namespace spotsim

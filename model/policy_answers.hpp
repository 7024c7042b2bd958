#pragma once
// What a policy may answer, whoever wrote it (built in, a C plugin, a Python class): the one place that says which
// values the engine takes, so that a plugin or Python policy cannot make garbage silently (an interval of 1e16 s used
// to overflow into 1 ms; a review at `now` asked the same question forever).
#include <string>

#include "base/time.hpp"

namespace spotsim {

// The longest interval or review horizon a policy may give: the longest duration spotsim reads anywhere
// (base/duration.hpp, 1e15 ms, about 31,700 years). Longer is refused, not clipped: a value that large is a unit
// mistake, and "never" has its own spelling (kNever, SPOTSIM_NEVER, None).
inline constexpr double kMaxPolicyHorizonMs = 1e15;

// "" when `ms` (before any rounding: it may come from a double) is a usable checkpoint interval, i.e. > 0 and at
// most kMaxPolicyHorizonMs; else what is expected.
std::string interval_problem(double ms);

// "" when `review_at_ms` is a usable review time at `now`: strictly after now and at most kMaxPolicyHorizonMs later
// (kNever is checked by the caller); else what is expected.
std::string review_problem(double review_at_ms, Millis now);

}  // namespace spotsim

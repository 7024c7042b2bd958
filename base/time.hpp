#pragma once
// Simulated time. Event keys are integer milliseconds so that ordering is exact and platform independent;
// doubles appear only at the edges (input parsing, statistics, output).
#include <cmath>
#include <cstdint>
#include <limits>

namespace spotsim {

using Millis = std::int64_t;

inline constexpr Millis kMillisPerSecond = 1000;
inline constexpr Millis kMillisPerMinute = 60 * kMillisPerSecond;
inline constexpr Millis kMillisPerHour = 60 * kMillisPerMinute;
inline constexpr Millis kMillisPerDay = 24 * kMillisPerHour;
// "Never": far enough away that adding any realistic duration cannot overflow.
inline constexpr Millis kNever = std::numeric_limits<Millis>::max() / 4;

inline constexpr double to_hours(Millis t) { return static_cast<double>(t) / static_cast<double>(kMillisPerHour); }
inline constexpr double to_seconds(Millis t) { return static_cast<double>(t) / static_cast<double>(kMillisPerSecond); }

// Rounds to the nearest millisecond; callers validate that the value is finite and in range first.
inline Millis millis_from_seconds(double seconds) { return static_cast<Millis>(std::llround(seconds * 1000.0)); }
inline Millis millis_from_hours(double hours) { return static_cast<Millis>(std::llround(hours * 3.6e6)); }

}  // namespace spotsim

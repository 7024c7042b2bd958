#pragma once
// The one rule for seeds and counts (replications, threads, nodes, chunk sizes, ...) wherever a user writes them:
// command-line options, experiment specs, the Python API. A count is a whole number in decimal digits within its
// range; a negative number (which Boost.Program_options would wrap to 2^64 - 1), a fraction, an exponent ("1e6")
// or a value out of range is refused with a message giving the range.
#include <cstdint>
#include <limits>
#include <string>

namespace spotsim {

// Seeds take every 64-bit value.
inline constexpr std::uint64_t kMaxSeed = std::numeric_limits<std::uint64_t>::max();

// "an integer in [1, 1000000000]".
std::string integer_range_text(std::uint64_t min, std::uint64_t max);

// The value of `text`, or InputError "WHAT: expected an integer in [MIN, MAX], got 'TEXT'".
std::uint64_t parse_integer_in_range(const std::string& text, std::uint64_t min, std::uint64_t max,
                                     const std::string& what);

}  // namespace spotsim

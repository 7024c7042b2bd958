#pragma once
// Counts as users write them: "25.6M", "1.3B", "7e9", "70k" (parameters of a model, tokens). K/k = 10^3, M = 10^6,
// B or G = 10^9, T = 10^12; a bare number is itself. One rule for `spotsim steptime --params` and the job
// stream's `params` column.
#include <string>

namespace spotsim {

// The count; InputError("<what>: expected a count such as 25.6M, 1.3B or 7e9, got '<text>'") for anything else
// (an unknown suffix, no number, not finite). The sign and range are the caller's to check.
double parse_count(const std::string& text, const std::string& what);

// The count as parse_count reads it, to 3 significant digits: 1.3e9 -> "1.3B", 25.6e6 -> "25.6M", 125 -> "125".
std::string format_count(double count);

}  // namespace spotsim

#pragma once
// Cells of the step-time tables (steptime_report, host_time): right- or left-aligned text, microseconds as ms.
#include <cstddef>
#include <string>

#include "base/text_format.hpp"

namespace spotsim {

// A step-time table's cell: right-aligned numbers unless `left` (base/text_format.hpp's pad).
inline std::string pad_cell(const std::string& text, std::size_t width, bool left = false) {
  return pad(text, width, left ? Align::kLeft : Align::kRight);
}

inline std::string ms_cell(double us) { return format_fixed(us / 1000.0, 2); }

}  // namespace spotsim

#pragma once
// `spotsim report`: one self-contained HTML page (inline SVG and CSS, nothing fetched from the network) from a
// simulate or sweep result and, optionally, a timeline file (docs/report.md).
#include <string>

#include "app/report/report_input.hpp"
#include "app/report/timeline_reader.hpp"

namespace spotsim {

// Cost/time charts drawn at most, one per (trace, job) of a sweep; series drawn at most in the CDFs.
inline constexpr std::size_t kMaxCostTimeCharts = 12;
inline constexpr std::size_t kMaxCdfSeries = 8;

// `timeline` may be null (the page then says how to get one).
std::string render_report_html(const ReportInput& input, const TimelineFile* timeline);

}  // namespace spotsim

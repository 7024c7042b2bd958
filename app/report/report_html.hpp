#pragma once
// `spotsim report`: one self-contained HTML page (inline SVG, CSS and a few lines of script, nothing fetched from
// the network) from a simulate, sweep or campaign result, or from several simulate results compared, with the
// timelines of chosen runs (docs/report.md).
#include <cstddef>
#include <string>
#include <vector>

#include "app/report/report_input.hpp"
#include "app/report/timeline_reader.hpp"

namespace spotsim {

// Cost/time charts drawn at most, one per (trace, job) of a sweep; series drawn at most in the CDFs.
inline constexpr std::size_t kMaxCostTimeCharts = 12;
inline constexpr std::size_t kMaxCdfSeries = 8;

// A timeline drawn on the page, and the configuration whose runs it logged.
struct ReportTimeline {
  std::size_t configuration = 0;
  const TimelineFile* file = nullptr;
};

// The page of one result, or of a comparison (input.command "comparison": one timeline per input at most, all
// drawn on one time axis). With no timeline the page says how to get one. Pages with timelines end with the zoom
// script (timeline_zoom.hpp); the rest is static.
std::string render_report_html(const ReportInput& input, const std::vector<ReportTimeline>& timelines);

// One result and at most one timeline (null: none).
std::string render_report_html(const ReportInput& input, const TimelineFile* timeline);

}  // namespace spotsim

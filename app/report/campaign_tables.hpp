#pragma once
// The campaign report's tables for a team's job stream (docs/report.md#campaigns): its results by job size, and
// what each DIY policy saves against what the team pays today. Both empty strings when the campaign output has
// none (a sweep of trials has no job sizes; --current-spend writes the savings).
#include <string>
#include <vector>

#include "app/report/report_input.hpp"
#include "app/report/report_style.hpp"

namespace spotsim {

// Per policy (its colour and label), a row per job size: jobs, turnaround and slowdown with their 95% intervals,
// cost per job and the share of deadlines met, the last marked when below 1.
std::string job_size_section(const ReportInput& input, const std::vector<std::string>& labels,
                             const SeriesStyles& styles);

// Against the baseline row at the stated monthly spend: each policy's saving (share and USD a month, net of the
// engineering cost when given) and the engineering cost a month up to which it pays.
std::string savings_section(const ReportInput& input, const std::vector<std::string>& labels,
                            const SeriesStyles& styles);

}  // namespace spotsim

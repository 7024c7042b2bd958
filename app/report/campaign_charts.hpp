#pragma once
// The campaign report's own sections (docs/report.md#campaigns): when each job finished under each policy, and
// the break-even against the managed services. Both in the page's series styles, one per policy.
#include <string>
#include <vector>

#include "app/report/report_input.hpp"
#include "app/report/report_style.hpp"

namespace spotsim {

// Jobs drawn at most in the per-job chart (a campaign may have thousands; the JSON keeps them all).
inline constexpr std::size_t kMaxJobsDrawn = 40;

// Per job (a row each, in the campaign's order), every policy's mean finish with its 95% interval: the turnaround
// (finish - arrival) when the output gives the arrivals, else the finish after the campaign's start, which is the
// turnaround of jobs that arrive together at the start (--trials). The deadline is drawn and a job past it ringed.
std::string job_finish_section(const ReportInput& input, const std::vector<std::string>& labels,
                               const SeriesStyles& styles);

// The net monthly saving of each DIY policy, s S - E, against the monthly managed spend S it replaces: a line per
// policy crossing zero at its break-even S* = E / s (marked and labelled), and the table of s and S*. Without a
// "break_even" object, a note saying how to get one.
std::string break_even_section(const ReportInput& input, const std::vector<std::string>& labels,
                               const SeriesStyles& styles);

}  // namespace spotsim

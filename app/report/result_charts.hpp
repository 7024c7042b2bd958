#pragma once
// The report's charts of Monte Carlo results, as inline SVG: cost against completion time with 95% intervals and
// the Pareto frontier, and the distributions (empirical CDFs) of cost and completion time.
#include <cstddef>
#include <string>
#include <vector>

#include "app/report/report_input.hpp"
#include "app/report/report_style.hpp"

namespace spotsim {

// The label of a configuration in legends and tables: its policy and checkpoint policy, plus the trace and job
// when the report holds several.
std::string configuration_label(const ReportConfiguration& c, bool with_trace, bool with_job);

// The frontier's points (those with `pareto` set among `members`) in the order to join them: by completion time,
// then cost. Indices into `configurations`.
std::vector<std::size_t> frontier_order(const std::vector<ReportConfiguration>& configurations,
                                        const std::vector<std::size_t>& members);

// A configuration that missed its deadline in some runs: P(deadline met) known and below 1.
bool misses_deadline(const ReportConfiguration& c);

// Mean cost (y) against mean completion time (x) of `members` (two or more: one point is a number, not a chart),
// each with its 95% intervals as error bars, in its style's colour and marker shape and labelled directly; the
// Pareto frontier ringed and joined by a dashed staircase; a configuration that misses its deadline in some runs
// circled with a dashed red ring and its label saying so.
std::string cost_time_chart(const std::vector<ReportConfiguration>& configurations,
                            const std::vector<std::size_t>& members, const std::vector<std::string>& labels,
                            const SeriesStyles& styles, const std::string& title);

// The empirical CDF of one metric per series (`values[i]` drawn in `styles[i]`, named `labels[i]`; empty ones are
// skipped).
std::string cdf_chart(const std::vector<std::vector<double>>& values, const std::vector<std::string>& labels,
                      const std::vector<SeriesStyle>& styles, const std::string& x_title, const std::string& title);

// An HTML legend: the marker and line of each series and its label.
std::string series_legend(const std::vector<std::string>& labels, const std::vector<SeriesStyle>& styles);

}  // namespace spotsim

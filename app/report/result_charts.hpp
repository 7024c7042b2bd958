#pragma once
// The report's charts of Monte Carlo results, as inline SVG: cost against completion time with 95% intervals and
// the Pareto frontier, and the distributions (empirical CDFs) of cost and completion time.
#include <cstddef>
#include <string>
#include <vector>

#include "app/report/report_input.hpp"

namespace spotsim {

// The label of a configuration in legends and tables: its policy and checkpoint policy, plus the trace and job
// when the report holds several.
std::string configuration_label(const ReportConfiguration& c, bool with_trace, bool with_job);

// The frontier's points (those with `pareto` set among `members`) in the order to join them: by completion time,
// then cost. Indices into `configurations`.
std::vector<std::size_t> frontier_order(const std::vector<ReportConfiguration>& configurations,
                                        const std::vector<std::size_t>& members);

// Mean cost (y) against mean completion time (x) of `members`, each with its 95% intervals as error bars, the
// Pareto frontier as a dashed staircase; configuration i has palette colour i, as in series_legend().
std::string cost_time_chart(const std::vector<ReportConfiguration>& configurations,
                            const std::vector<std::size_t>& members, const std::vector<std::string>& labels,
                            const std::string& title);

// The empirical CDF of one metric per configuration (`values[i]` for configuration i; empty ones are skipped).
std::string cdf_chart(const std::vector<std::vector<double>>& values, const std::vector<std::string>& labels,
                      const std::string& x_title, const std::string& title);

// An HTML legend: a colour swatch and label per configuration, palette colours in order.
std::string series_legend(const std::vector<std::string>& labels);

}  // namespace spotsim

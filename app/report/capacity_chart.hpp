#pragma once
// The campaign report's chart of capacity over time (docs/campaign.md#outputs): for each policy, the mean spot
// instances its campaign held in each hour after the start, against the mean the zones could give (dashed).
#include <string>
#include <vector>

#include "app/report/report_input.hpp"
#include "app/report/report_style.hpp"

namespace spotsim {

// `members`: the configurations drawn (those with held_by_hour), each in its policy's style as in every chart of
// the page; the obtainable capacity is the longest capacity_by_hour among them.
std::string capacity_chart(const std::vector<ReportConfiguration>& configurations,
                           const std::vector<std::size_t>& members, const std::vector<std::string>& labels,
                           const SeriesStyles& styles);

}  // namespace spotsim

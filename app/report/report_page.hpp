#pragma once
// What `spotsim report` does with its arguments (docs/report.md): reads the results and their timelines, and
// renders one page; one result gives its own report, two or more a comparison (report_comparison.hpp).
#include <string>
#include <vector>

namespace spotsim {

// `results`: one or more paths (simulate or campaign JSON, or a sweep directory); `timelines`: none (each simulate
// JSON's own `timeline` is drawn) or one `simulate --timeline` file per result, matched by position. InputError
// naming the file on any bad input, and on a count of timelines that is neither.
std::string report_page_html(const std::vector<std::string>& results, const std::vector<std::string>& timelines);

}  // namespace spotsim

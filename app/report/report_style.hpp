#pragma once
// The report page's stylesheet, inlined: system fonts only, so the page needs no network to look right.
#include <string>

namespace spotsim {

std::string report_css();

}  // namespace spotsim

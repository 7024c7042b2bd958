#pragma once
// Zooming the report's timelines (docs/report.md#zooming): a few lines of inline script, no library and nothing
// fetched, that stretch every timeline of the page to the same range of hours. Without script the page shows the
// static charts at their full range; the help line and its buttons stay hidden.
#include <string>

namespace spotsim {

// The help line above the timelines, with a Reset and a Zoom-out button (hidden until the script shows it).
std::string timeline_zoom_help();

// The <script> element, placed at the end of the body: drag across any timeline to zoom all of them to that range,
// double-click or Reset for the whole axis; the range lives in the page's address (#zoom=FROM,TO in hours), so a
// zoomed view can be linked to and a test can open one.
std::string timeline_zoom_script();

}  // namespace spotsim

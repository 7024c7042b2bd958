#pragma once
// Direct labels for the points of a chart: each point's name written beside it, so a reader need not match
// colours against a legend (Cleveland, "The Elements of Graphing Data", 1994, on labelling data directly).
#include <string>
#include <vector>

namespace spotsim {

struct LabelledPoint {
  double x = 0.0, y = 0.0;  // the point, in pixels
  std::string text;         // unescaped: escaped when written
};

struct PlotBox {
  double left = 0.0, right = 0.0, top = 0.0, bottom = 0.0;
};

// One <text class="point-label"> per point: to the right of it, or to the left where the text would leave the
// plot's right edge; moved down (then up) in steps of a line where it would overlap a label already placed. Text
// longer than 48 characters is cut with an ellipsis (the point's tooltip keeps the whole name).
std::string point_labels_svg(const std::vector<LabelledPoint>& points, const PlotBox& box);

// The width the report's SVG font gives `text` at 11 px, roughly (an average glyph of 6.2 px): enough to keep a
// label inside the plot without measuring it in a browser.
double label_width(const std::string& text);

}  // namespace spotsim

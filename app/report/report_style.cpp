#include "app/report/report_style.hpp"

#include <map>

#include "app/report/html_text.hpp"

namespace spotsim {

std::string report_css() {
  return R"CSS(
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #222; margin: 0;
       background: #fff; line-height: 1.4; }
header { background: #0b3d5c; color: #fff; padding: 14px 28px; }
header h1 { font-size: 20px; margin: 0; word-break: break-all; }
.subtitle { margin: 4px 0 0; opacity: 0.85; font-size: 14px; }
main { padding: 8px 28px 40px; max-width: 1180px; }
h2 { font-size: 17px; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 4px 8px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
thead th { background: #f4f6f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci { color: #666; font-size: 12px; }
.note { color: #555; font-size: 13px; }
figure { margin: 8px 0; display: inline-block; }
figcaption { font-size: 13px; color: #333; font-weight: 600; }
.pair { display: flex; flex-wrap: wrap; gap: 8px; }
.pair svg { width: 560px; height: auto; }
svg { max-width: 100%; height: auto; font-size: 12px; }
svg .grid { stroke: #e6e6e6; stroke-width: 1; }
svg .plot { fill: none; stroke: #888; }
svg .tick { fill: #444; font-size: 11px; }
svg .axis-title { fill: #222; font-size: 12px; }
svg .frontier { fill: none; stroke: #555; stroke-dasharray: 5 4; stroke-width: 1.5; }
svg .point .error { stroke: currentColor; stroke-width: 1.5; }
svg .point .mark { fill: currentColor; stroke: #fff; stroke-width: 1; }
svg .cdf { fill: none; stroke-width: 2; }
svg .run-label { font-weight: 600; fill: #222; }
svg .run-note { fill: #555; font-size: 11px; }
svg .zone { fill: #fff; font-size: 10px; pointer-events: none; }
svg .mark-checkpoint { stroke: #222; stroke-width: 1; }
svg .mark-transfer { fill: #CC79A7; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 13px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 2px; margin-right: 6px; vertical-align: -2px; }
.glyph { display: inline-block; width: 14px; margin-right: 6px; text-align: center; }
.barcell { width: 240px; }
.bar { height: 12px; background: #0072B2; border-radius: 2px; }
svg .point-label { fill: #222; font-size: 11px; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg .pareto-ring { fill: none; stroke: #222; stroke-width: 1.5; }
svg .deadline-miss { fill: none; stroke: #D55E00; stroke-width: 1.5; stroke-dasharray: 3 2; }
svg .deadline { stroke: #D55E00; stroke-width: 1.5; stroke-dasharray: 6 3; vector-effect: non-scaling-stroke; }
svg .past-deadline { fill: #D55E00; fill-opacity: 0.10; pointer-events: none; }
svg .deadline-label { fill: #D55E00; font-size: 11px; }
svg g.lanes * { vector-effect: non-scaling-stroke; }
svg.timeline { cursor: crosshair; user-select: none; }
svg .zoom-band { fill: #0072B2; fill-opacity: 0.15; stroke: #0072B2; }
svg .break-even-zero { stroke: #555; stroke-width: 1; }
tr.missed td:first-child { box-shadow: inset 3px 0 0 #D55E00; }
.miss { color: #B03A00; font-weight: 600; white-space: nowrap; }
.numbers { font-size: 14px; }
.zoom-help button { font: inherit; font-size: 12px; margin-left: 8px; }
figure.compared { display: block; margin: 4px 0 10px; }
figure.compared figcaption .legend-glyph { vertical-align: -2px; margin-right: 6px; }
.legend-glyph { display: inline-block; vertical-align: -2px; margin-right: 6px; }
pre { background: #f6f8fa; padding: 10px; font-size: 12px; overflow-x: auto; max-height: 420px; }
code { background: #f2f2f2; padding: 1px 4px; border-radius: 3px; }
)CSS";
}

namespace {

// Dash patterns of the 2nd, 3rd, ... configuration of one policy (a sweep's checkpoint policies, say).
const char* const kDashes[] = {"", "6 3", "2 2", "8 3 2 3", "1 3"};

std::string polygon(double x, double y, double r, std::initializer_list<std::pair<double, double>> unit_points) {
  std::string points;
  for (const auto& [dx, dy] : unit_points) points += svg_number(x + dx * r) + "," + svg_number(y + dy * r) + " ";
  points.pop_back();
  return points;
}

}  // namespace

std::string SeriesStyle::dash() const { return kDashes[static_cast<std::size_t>(variant) % std::size(kDashes)]; }

SeriesStyles::SeriesStyles(const std::vector<std::string>& policy_of_configuration) {
  std::map<std::string, std::size_t> rank;       // policy -> order of first appearance
  std::map<std::string, int> configurations_of;  // policy -> configurations seen so far
  for (const std::string& policy : policy_of_configuration) {
    const std::size_t n = rank.emplace(policy, rank.size()).first->second;
    SeriesStyle style;
    style.colour = kPalette[n % kPaletteSize];
    style.shape = static_cast<MarkerShape>((n / kPaletteSize) % kMarkerShapes);
    style.variant = configurations_of[policy]++;
    styles_.push_back(style);
  }
}

std::string marker_svg(const SeriesStyle& style, double x, double y, double radius, const std::string& css_class) {
  const std::string head = "class=\"" + css_class + "\" fill=\"" + style.colour + "\" data-shape=\"";
  switch (style.shape) {
    case MarkerShape::kSquare:
      return "<rect " + head + "square\" x=\"" + svg_number(x - 0.9 * radius) + "\" y=\"" +
             svg_number(y - 0.9 * radius) + "\" width=\"" + svg_number(1.8 * radius) + "\" height=\"" +
             svg_number(1.8 * radius) + "\"/>";
    case MarkerShape::kTriangle:
      return "<polygon " + head + "triangle\" points=\"" + polygon(x, y, radius, {{0, -1.2}, {1.1, 0.8}, {-1.1, 0.8}}) +
             "\"/>";
    case MarkerShape::kDiamond:
      return "<polygon " + head + "diamond\" points=\"" +
             polygon(x, y, radius, {{0, -1.3}, {1.3, 0}, {0, 1.3}, {-1.3, 0}}) + "\"/>";
    case MarkerShape::kTriangleDown:
      return "<polygon " + head + "triangle-down\" points=\"" +
             polygon(x, y, radius, {{0, 1.2}, {1.1, -0.8}, {-1.1, -0.8}}) + "\"/>";
    case MarkerShape::kCircle: break;
  }
  return "<circle " + head + "circle\" cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" +
         svg_number(radius) + "\"/>";
}

std::string legend_glyph(const SeriesStyle& style) {
  const std::string dash = style.dash();
  return "<svg class=\"legend-glyph\" width=\"22\" height=\"14\" viewBox=\"0 0 22 14\" aria-hidden=\"true\">"
         "<line x1=\"0\" x2=\"22\" y1=\"7\" y2=\"7\" stroke=\"" +
         std::string(style.colour) + "\" stroke-width=\"2\"" +
         (dash.empty() ? std::string() : " stroke-dasharray=\"" + dash + "\"") + "/>" +
         marker_svg(style, 11, 7, 4.5, "mark") + "</svg>";
}

}  // namespace spotsim

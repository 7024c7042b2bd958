#include "app/report/point_labels.hpp"

#include <algorithm>
#include <cmath>

#include "app/report/html_text.hpp"

namespace spotsim {

namespace {

constexpr std::size_t kMaxLabelCharacters = 48;
constexpr double kLineHeight = 13.0, kGap = 8.0;

struct Box {
  double left, right, top, bottom;
  bool overlaps(const Box& o) const { return left < o.right && o.left < right && top < o.bottom && o.top < bottom; }
};

// The first `limit` UTF-8 characters of `text`, never cutting a character in two.
std::string cut(const std::string& text) {
  std::size_t characters = 0, at = 0;
  for (; at < text.size(); ++at) {
    if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80 && characters++ == kMaxLabelCharacters) break;
  }
  return at < text.size() ? text.substr(0, at) + "\xE2\x80\xA6" : text;
}

}  // namespace

double label_width(const std::string& text) {
  std::size_t characters = 0;
  for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return 6.2 * static_cast<double>(characters);
}

std::string point_labels_svg(const std::vector<LabelledPoint>& points, const PlotBox& box) {
  std::vector<Box> placed;
  std::string svg;
  for (const LabelledPoint& p : points) {
    const std::string text = cut(p.text);
    const double width = label_width(text);
    const bool left_side = p.x + kGap + width > box.right && p.x - kGap - width >= box.left;
    const double x0 = left_side ? p.x - kGap - width : p.x + kGap;
    // Baseline a third of a line below the point, so the text's middle sits level with it; then try lines below
    // and above in turn until it overlaps no label placed before, within the plot.
    double baseline = p.y + 4.0;
    for (int k = 1; k <= 12; ++k) {
      const Box b{x0, x0 + width, baseline - 10.0, baseline + 3.0};
      const bool inside = b.top >= box.top && b.bottom <= box.bottom;
      if (inside && std::none_of(placed.begin(), placed.end(), [&](const Box& o) { return o.overlaps(b); })) break;
      const double step = kLineHeight * ((k + 1) / 2);
      baseline = p.y + 4.0 + (k % 2 == 1 ? step : -step);
    }
    baseline = std::clamp(baseline, box.top + 10.0, box.bottom - 3.0);
    placed.push_back({x0, x0 + width, baseline - 10.0, baseline + 3.0});
    svg += "<text class=\"point-label\" x=\"" + svg_number(left_side ? p.x - kGap : p.x + kGap) + "\" y=\"" +
           svg_number(baseline) + "\" text-anchor=\"" + (left_side ? "end" : "start") + "\">" + html_escape(text) +
           "</text>\n";
  }
  return svg;
}

}  // namespace spotsim

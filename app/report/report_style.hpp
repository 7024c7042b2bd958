#pragma once
// How the report looks, in one place: the inlined stylesheet (system fonts only, so the page needs no network to
// look right) and the series styles, so that one policy has one colour in every chart of a page.
#include <cstddef>
#include <string>
#include <vector>

namespace spotsim {

std::string report_css();

// The Okabe-Ito palette (Okabe & Ito, "Color Universal Design", 2008): distinguishable with any colour vision.
inline constexpr const char* kPalette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                           "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
inline constexpr std::size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

// Beyond 8 series the colours come round again; the marker's shape then tells them apart (8 x 5 = 40 series look
// different; more repeat, and the direct labels still name them).
enum class MarkerShape { kCircle, kSquare, kTriangle, kDiamond, kTriangleDown };
inline constexpr std::size_t kMarkerShapes = 5;

struct SeriesStyle {
  const char* colour = kPalette[0];
  MarkerShape shape = MarkerShape::kCircle;
  int variant = 0;           // the k-th configuration of the same policy: 0 solid, then dash patterns for lines
  std::string dash() const;  // an SVG stroke-dasharray for the variant; "" when solid
};

// One style per configuration, keyed by policy: the n-th distinct policy of the page (in the order given) gets
// palette colour n % 8 and shape n / 8, so the same policy looks the same in the table, every chart and every
// timeline, whatever subset a chart draws.
class SeriesStyles {
 public:
  explicit SeriesStyles(const std::vector<std::string>& policy_of_configuration);
  const SeriesStyle& operator[](std::size_t configuration) const { return styles_[configuration]; }
  std::size_t size() const { return styles_.size(); }

 private:
  std::vector<SeriesStyle> styles_;
};

// A marker of `style`'s shape and colour centred on (x, y), about 2 * radius across; `css_class` on the element.
std::string marker_svg(const SeriesStyle& style, double x, double y, double radius, const std::string& css_class);

// A 14-px inline SVG of the marker (and the line's dash) for legends and table rows.
std::string legend_glyph(const SeriesStyle& style);

}  // namespace spotsim

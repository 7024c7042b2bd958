#include "app/report/chart_frame.hpp"

#include "app/report/html_text.hpp"

namespace spotsim {

ChartFrame::ChartFrame(int width, int height, AxisTicks x_ticks, AxisTicks y_ticks)
    : width_(width), height_(height), x_ticks_(std::move(x_ticks)), y_ticks_(std::move(y_ticks)) {}

double ChartFrame::x(double value) const {
  return left() + (value - x_ticks_.low) / (x_ticks_.high - x_ticks_.low) * (right() - left());
}

double ChartFrame::y(double value) const {
  return bottom() - (value - y_ticks_.low) / (y_ticks_.high - y_ticks_.low) * (bottom() - top());
}

std::string ChartFrame::open(const std::string& css_class, const std::string& title, const std::string& x_title,
                             const std::string& y_title) const {
  const std::string w = std::to_string(width_), h = std::to_string(height_);
  std::string svg = "<svg class=\"" + css_class + "\" viewBox=\"0 0 " + w + " " + h + "\" width=\"" + w +
                    "\" height=\"" + h + "\" role=\"img\"><title>" + html_escape(title) + "</title>\n";
  for (const double v : x_ticks_.values) {
    const std::string px = svg_number(x(v));
    svg += "<line class=\"grid\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(top()) + "\" y2=\"" +
           std::to_string(bottom()) + "\"/>";
    svg += "<text class=\"tick\" x=\"" + px + "\" y=\"" + std::to_string(bottom() + 16) + "\" text-anchor=\"middle\">" +
           tick_label(v, x_ticks_.step) + "</text>\n";
  }
  for (const double v : y_ticks_.values) {
    const std::string py = svg_number(y(v));
    svg += "<line class=\"grid\" x1=\"" + std::to_string(left()) + "\" x2=\"" + std::to_string(right()) + "\" y1=\"" +
           py + "\" y2=\"" + py + "\"/>";
    svg += "<text class=\"tick\" x=\"" + std::to_string(left() - 6) + "\" y=\"" + svg_number(y(v) + 4) +
           "\" text-anchor=\"end\">" + tick_label(v, y_ticks_.step) + "</text>\n";
  }
  svg += "<rect class=\"plot\" x=\"" + std::to_string(left()) + "\" y=\"" + std::to_string(top()) + "\" width=\"" +
         std::to_string(right() - left()) + "\" height=\"" + std::to_string(bottom() - top()) + "\"/>\n";
  svg += "<text class=\"axis-title\" x=\"" + svg_number((left() + right()) / 2.0) + "\" y=\"" +
         std::to_string(height_ - 12) + "\" text-anchor=\"middle\">" + html_escape(x_title) + "</text>\n";
  svg += "<text class=\"axis-title\" transform=\"translate(18 " + svg_number((top() + bottom()) / 2.0) +
         ") rotate(-90)\" text-anchor=\"middle\">" + html_escape(y_title) + "</text>\n";
  return svg;
}

}  // namespace spotsim

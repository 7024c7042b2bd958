#pragma once
// The frame every chart of the report shares: a plot area inside margins, round ticks on both axes (axis_ticks.hpp),
// grid lines, axis titles with units. Charts map data to pixels through x()/y() and add their marks inside.
#include <string>

#include "app/report/axis_ticks.hpp"

namespace spotsim {

class ChartFrame {
 public:
  ChartFrame(int width, int height, AxisTicks x_ticks, AxisTicks y_ticks);
  double x(double value) const;  // pixel column of a data value
  double y(double value) const;  // pixel row (up is larger)
  // The opening <svg> with its accessible title, grid, ticks and axis titles; close with "</svg>".
  std::string open(const std::string& css_class, const std::string& title, const std::string& x_title,
                   const std::string& y_title) const;
  int left() const { return kLeft; }
  int right() const { return width_ - kRight; }
  int top() const { return kTop; }
  int bottom() const { return height_ - kBottom; }

 private:
  static constexpr int kLeft = 72, kRight = 24, kTop = 16, kBottom = 52;
  int width_, height_;
  AxisTicks x_ticks_, y_ticks_;
};

}  // namespace spotsim

#pragma once
// Round axis ticks for the report's charts: 1, 2 or 5 times a power of ten (Heckbert, "Nice numbers for graph
// labels", Graphics Gems, 1990), so an axis reads 0, 20, 40 h rather than 0, 17.3, 34.6 h.
#include <string>
#include <vector>

namespace spotsim {

struct AxisTicks {
  double low = 0.0, high = 1.0;  // the axis range: the data's, widened to whole steps
  double step = 1.0;
  std::vector<double> values;  // low, low + step, ..., high
};

// About `target` ticks covering [data_low, data_high]; a single value or a NaN/infinite bound gives a unit range
// around it. Degenerate inputs never loop or throw.
AxisTicks nice_ticks(double data_low, double data_high, int target = 5);

// A tick's label with as many decimals as the step needs ("0.25", "40", "1,200" is written "1200").
std::string tick_label(double value, double step);

}  // namespace spotsim

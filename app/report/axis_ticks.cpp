#include "app/report/axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spotsim {

namespace {
// The nice number (1, 2, 5 x 10^k) nearest to `x` > 0.
double nice_step(double x) {
  const double exponent = std::floor(std::log10(x));
  const double power = std::pow(10.0, exponent);
  const double fraction = x / power;
  const double nice = fraction < 1.5 ? 1.0 : fraction < 3.0 ? 2.0 : fraction < 7.0 ? 5.0 : 10.0;
  return nice * power;
}
}  // namespace

AxisTicks nice_ticks(double data_low, double data_high, int target) {
  if (!std::isfinite(data_low) || !std::isfinite(data_high)) data_low = data_high = 0.0;
  if (data_low > data_high) std::swap(data_low, data_high);
  if (data_high - data_low < 1e-12 * std::max(1.0, std::fabs(data_high))) {
    // One value: a range of about a tenth of it on either side (or a unit range around 0).
    const double half = data_high == 0.0 ? 1.0 : std::fabs(data_high) * 0.1;
    data_low -= half;
    data_high += half;
  }
  target = std::clamp(target, 2, 20);
  AxisTicks ticks;
  ticks.step = nice_step((data_high - data_low) / (target - 1));
  ticks.low = std::floor(data_low / ticks.step) * ticks.step;
  ticks.high = std::ceil(data_high / ticks.step) * ticks.step;
  const auto count = static_cast<int>(std::llround((ticks.high - ticks.low) / ticks.step));
  for (int i = 0; i <= count; ++i) {
    double v = ticks.low + i * ticks.step;
    if (std::fabs(v) < ticks.step * 1e-9) v = 0.0;  // no "-0" from rounding
    ticks.values.push_back(v);
  }
  return ticks;
}

std::string tick_label(double value, double step) {
  const int decimals = step >= 1.0 ? 0 : std::min(12, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  std::string label = text;
  if (label == "-0") label = "0";
  return label;
}

}  // namespace spotsim

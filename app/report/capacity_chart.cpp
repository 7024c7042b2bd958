#include "app/report/capacity_chart.hpp"

#include <algorithm>

#include "app/report/chart_frame.hpp"
#include "app/report/html_text.hpp"

namespace spotsim {

namespace {

constexpr int kCapacityWidth = 720, kCapacityHeight = 360;

// Steps: each hour's mean held flat across the hour.
std::string hourly_steps(const ChartFrame& frame, const std::vector<double>& values) {
  std::string points;
  for (std::size_t h = 0; h < values.size(); ++h) {
    points += svg_number(frame.x(static_cast<double>(h))) + "," + svg_number(frame.y(values[h])) + " ";
    points += svg_number(frame.x(static_cast<double>(h + 1))) + "," + svg_number(frame.y(values[h])) + " ";
  }
  return points;
}

}  // namespace

std::string capacity_chart(const std::vector<ReportConfiguration>& configurations,
                           const std::vector<std::size_t>& members, const std::vector<std::string>& labels,
                           const SeriesStyles& styles) {
  std::size_t hours = 1;
  double top = 1.0;
  const std::vector<double>* capacity = nullptr;
  for (const std::size_t i : members) {
    const ReportConfiguration& c = configurations[i];
    hours = std::max(hours, c.held_by_hour.size());
    for (const double v : c.held_by_hour) top = std::max(top, v);
    if (capacity == nullptr || c.capacity_by_hour.size() > capacity->size()) capacity = &c.capacity_by_hour;
  }
  if (capacity != nullptr) {
    for (const double v : *capacity) top = std::max(top, v);
  }
  const ChartFrame frame(kCapacityWidth, kCapacityHeight, nice_ticks(0.0, static_cast<double>(hours)),
                         nice_ticks(0.0, top));
  std::string svg = frame.open("chart capacity", "spot instances held and obtainable by hour", "hours after the start",
                               "spot instances (mean over runs)");
  if (capacity != nullptr && !capacity->empty()) {
    svg += "<polyline class=\"capacity\" style=\"stroke:#777;stroke-dasharray:5 4;fill:none\" points=\"" +
           hourly_steps(frame, *capacity) + "\"><title>obtainable (sum of the zones' counts)</title></polyline>\n";
  }
  for (const std::size_t i : members) {
    svg += "<polyline class=\"held\" style=\"stroke:" + std::string(styles[i].colour) + ";fill:none\" points=\"" +
           hourly_steps(frame, configurations[i].held_by_hour) + "\"><title>" + html_escape(labels[i]) +
           "</title></polyline>\n";
  }
  return svg + "</svg>\n";
}

}  // namespace spotsim

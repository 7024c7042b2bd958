#include "app/report/result_charts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/report/chart_frame.hpp"
#include "app/report/empirical_cdf.hpp"
#include "app/report/html_text.hpp"
#include "app/report/point_labels.hpp"

namespace spotsim {

namespace {
constexpr int kWidth = 720, kHeight = 400;

struct Range {
  double low = std::numeric_limits<double>::infinity(), high = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    low = std::min(low, v);
    high = std::max(high, v);
  }
};
}  // namespace

std::string configuration_label(const ReportConfiguration& c, bool with_trace, bool with_job) {
  std::string label = c.policy + " + " + c.checkpoint;
  if (with_job) label += " \xC2\xB7 " + c.job;
  if (with_trace) label += " \xC2\xB7 " + c.trace;
  return label;
}

std::vector<std::size_t> frontier_order(const std::vector<ReportConfiguration>& configurations,
                                        const std::vector<std::size_t>& members) {
  std::vector<std::size_t> on;
  for (const std::size_t i : members) {
    if (configurations[i].pareto) on.push_back(i);
  }
  std::sort(on.begin(), on.end(), [&](std::size_t a, std::size_t b) {
    const auto& ca = configurations[a];
    const auto& cb = configurations[b];
    if (ca.completion.mean != cb.completion.mean) return ca.completion.mean < cb.completion.mean;
    return ca.cost.mean < cb.cost.mean;
  });
  return on;
}

bool misses_deadline(const ReportConfiguration& c) { return c.deadline_met.present() && c.deadline_met.mean < 1.0; }

std::string cost_time_chart(const std::vector<ReportConfiguration>& configurations,
                            const std::vector<std::size_t>& members, const std::vector<std::string>& labels,
                            const SeriesStyles& styles, const std::string& title) {
  Range x, y;
  for (const std::size_t i : members) {
    const ReportConfiguration& c = configurations[i];
    for (const double v : {c.completion.mean, c.completion.ci_low, c.completion.ci_high}) x.add(v);
    for (const double v : {c.cost.mean, c.cost.ci_low, c.cost.ci_high}) y.add(v);
  }
  const ChartFrame frame(kWidth, kHeight, nice_ticks(x.low, x.high), nice_ticks(y.low, y.high));
  std::string svg =
      frame.open("chart cost-time", title, "mean completion time (h), 95% interval", "mean cost (USD), 95% interval");
  const std::vector<std::size_t> frontier = frontier_order(configurations, members);
  if (frontier.size() > 1) {
    // The frontier as a staircase: between two of its points, a cost is only reached by waiting longer.
    std::string points;
    for (std::size_t k = 0; k < frontier.size(); ++k) {
      const ReportConfiguration& c = configurations[frontier[k]];
      if (k > 0)
        points += svg_number(frame.x(c.completion.mean)) + "," +
                  svg_number(frame.y(configurations[frontier[k - 1]].cost.mean)) + " ";
      points += svg_number(frame.x(c.completion.mean)) + "," + svg_number(frame.y(c.cost.mean)) + " ";
    }
    svg += "<polyline class=\"frontier\" points=\"" + points + "\"/>\n";
  }
  std::vector<LabelledPoint> named;
  for (const std::size_t i : members) {
    const ReportConfiguration& c = configurations[i];
    const bool missed = misses_deadline(c);
    const double x0 = frame.x(c.completion.mean), y0 = frame.y(c.cost.mean);
    const std::string px = svg_number(x0), py = svg_number(y0);
    svg += "<g class=\"point" + std::string(missed ? " missed" : "") + "\" style=\"color:" + styles[i].colour +
           "\"><title>" + html_escape(labels[i]) + ": " + display_number(c.cost.mean, 2) + " USD [" +
           display_number(c.cost.ci_low, 2) + ", " + display_number(c.cost.ci_high, 2) + "], " +
           display_number(c.completion.mean, 2) + " h [" + display_number(c.completion.ci_low, 2) + ", " +
           display_number(c.completion.ci_high, 2) + "]" + (c.pareto ? ", on the Pareto frontier" : "") +
           (missed ? ", deadline met in " + display_number(100.0 * c.deadline_met.mean, 1) + "% of runs" : "") +
           "</title>";
    if (c.completion.ci_low < c.completion.ci_high) {
      svg += "<line class=\"error\" x1=\"" + svg_number(frame.x(c.completion.ci_low)) + "\" x2=\"" +
             svg_number(frame.x(c.completion.ci_high)) + "\" y1=\"" + py + "\" y2=\"" + py + "\"/>";
    }
    if (c.cost.ci_low < c.cost.ci_high) {
      svg += "<line class=\"error\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + svg_number(frame.y(c.cost.ci_low)) +
             "\" y2=\"" + svg_number(frame.y(c.cost.ci_high)) + "\"/>";
    }
    if (missed) svg += "<circle class=\"deadline-miss\" cx=\"" + px + "\" cy=\"" + py + "\" r=\"11\"/>";
    if (c.pareto) svg += "<circle class=\"pareto-ring\" cx=\"" + px + "\" cy=\"" + py + "\" r=\"8\"/>";
    svg += marker_svg(styles[i], x0, y0, 5.0, c.pareto ? "mark pareto" : "mark") + "</g>\n";
    named.push_back(
        {x0, y0,
         labels[i] +
             (missed ? " \xE2\x80\x94 deadline met " + display_number(100.0 * c.deadline_met.mean, 0) + "%" : "")});
  }
  svg += point_labels_svg(named, {static_cast<double>(frame.left()), static_cast<double>(frame.right()),
                                  static_cast<double>(frame.top()), static_cast<double>(frame.bottom())});
  return svg + "</svg>\n";
}

std::string cdf_chart(const std::vector<std::vector<double>>& values, const std::vector<std::string>& labels,
                      const std::vector<SeriesStyle>& styles, const std::string& x_title, const std::string& title) {
  Range x;
  std::vector<std::vector<CdfPoint>> curves;
  for (const auto& v : values) {
    curves.push_back(empirical_cdf(v));
    for (const CdfPoint& p : curves.back()) x.add(p.x);
  }
  const ChartFrame frame(kWidth, kHeight, nice_ticks(x.low, x.high), nice_ticks(0.0, 1.0, 6));
  std::string svg = frame.open("chart cdf", title, x_title, "fraction of runs \xE2\x89\xA4 x");
  for (std::size_t i = 0; i < curves.size(); ++i) {
    if (curves[i].empty()) continue;
    // Steps: flat at F until the next value, then up; starting from 0 at the first value.
    std::string points = svg_number(frame.x(curves[i].front().x)) + "," + svg_number(frame.y(0.0)) + " ";
    double previous = 0.0;
    for (const CdfPoint& p : curves[i]) {
      points += svg_number(frame.x(p.x)) + "," + svg_number(frame.y(previous)) + " ";
      points += svg_number(frame.x(p.x)) + "," + svg_number(frame.y(p.probability)) + " ";
      previous = p.probability;
    }
    const std::string dash = styles[i].dash();
    svg += "<polyline class=\"cdf\" style=\"stroke:" + std::string(styles[i].colour) +
           (dash.empty() ? "" : ";stroke-dasharray:" + dash) + "\" points=\"" + points + "\"><title>" +
           html_escape(labels[i]) + "</title></polyline>\n";
  }
  return svg + "</svg>\n";
}

std::string series_legend(const std::vector<std::string>& labels, const std::vector<SeriesStyle>& styles) {
  std::string html = "<ul class=\"legend\">";
  for (std::size_t i = 0; i < labels.size(); ++i)
    html += "<li>" + legend_glyph(styles[i]) + html_escape(labels[i]) + "</li>";
  return html + "</ul>\n";
}

}  // namespace spotsim

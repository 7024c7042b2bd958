#include "app/report/campaign_charts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/report/axis_ticks.hpp"
#include "app/report/chart_frame.hpp"
#include "app/report/html_text.hpp"
#include "app/report/point_labels.hpp"
#include "app/report/result_charts.hpp"

namespace spotsim {

namespace {

constexpr int kJobChartWidth = 900, kJobNames = 150, kJobRight = 24, kJobTop = 12, kJobRow = 18, kJobAxis = 44;

double turnaround(const JobFinish& job, double value) {
  return std::isnan(job.arrival_hours) ? value : value - job.arrival_hours;
}

}  // namespace

std::string job_finish_section(const ReportInput& input, const std::vector<std::string>& labels,
                               const SeriesStyles& styles) {
  std::string html = "<section id=\"job-finish\"><h2>Turnaround per job</h2>\n";
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    if (!input.configurations[i].jobs.empty()) members.push_back(i);
  }
  if (members.empty())
    return html +
           "<p class=\"note\">The campaign output has no per-job results (\"jobs\" of each row).</p></section>\n";
  const std::vector<JobFinish>& names = input.configurations[members.front()].jobs;
  const std::size_t rows = std::min(names.size(), kMaxJobsDrawn);
  bool arrivals = false;
  for (const JobFinish& j : names) arrivals = arrivals || !std::isnan(j.arrival_hours);
  double high = 0.0;
  for (const std::size_t i : members) {
    for (std::size_t j = 0; j < std::min(rows, input.configurations[i].jobs.size()); ++j) {
      const JobFinish& job = input.configurations[i].jobs[j];
      for (const double v : {job.finish.mean, job.finish.ci_high})
        if (std::isfinite(v)) high = std::max(high, turnaround(job, v));
    }
  }
  const double deadline = input.configurations[members.front()].deadline_hours;
  if (std::isfinite(deadline) && !arrivals) high = std::max(high, deadline);
  const AxisTicks ticks = nice_ticks(0.0, high > 0.0 ? high : 1.0, 8);
  const double plot = kJobChartWidth - kJobNames - kJobRight;
  const auto x = [&](double hours) { return kJobNames + (hours - ticks.low) / (ticks.high - ticks.low) * plot; };
  const int axis_y = kJobTop + static_cast<int>(rows) * kJobRow;
  const int height = axis_y + kJobAxis;
  std::string svg = "<svg class=\"chart job-finish\" viewBox=\"0 0 " + std::to_string(kJobChartWidth) + " " +
                    std::to_string(height) + "\" width=\"" + std::to_string(kJobChartWidth) + "\" height=\"" +
                    std::to_string(height) + "\" role=\"img\"><title>turnaround per job</title>\n";
  for (const double v : ticks.values) {
    const std::string px = svg_number(x(v));
    svg += "<line class=\"grid\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(kJobTop) + "\" y2=\"" +
           std::to_string(axis_y) + "\"/><text class=\"tick\" x=\"" + px + "\" y=\"" + std::to_string(axis_y + 16) +
           "\" text-anchor=\"middle\">" + tick_label(v, ticks.step) + "</text>\n";
  }
  svg += "<text class=\"axis-title\" x=\"" + svg_number(kJobNames + plot / 2) + "\" y=\"" + std::to_string(height - 8) +
         "\" text-anchor=\"middle\">" +
         (arrivals ? "turnaround: finish \xE2\x88\x92 arrival (h), mean and 95% interval"
                   : "finish, hours after the campaign's start (mean and 95% interval)") +
         "</text>\n";
  if (std::isfinite(deadline) && !arrivals) {
    const std::string px = svg_number(x(deadline));
    svg += "<line class=\"deadline\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(kJobTop) + "\" y2=\"" +
           std::to_string(axis_y) + "\"><title>the campaign's deadline, " + display_number(deadline, 1) +
           " h</title></line>\n";
  }
  for (std::size_t j = 0; j < rows; ++j) {
    const double mid = kJobTop + (static_cast<double>(j) + 0.5) * kJobRow;
    svg += "<g class=\"job\"><text class=\"tick\" x=\"" + std::to_string(kJobNames - 6) + "\" y=\"" +
           svg_number(mid + 4) + "\" text-anchor=\"end\">" + html_escape(names[j].name) + "</text>";
    for (std::size_t k = 0; k < members.size(); ++k) {
      const std::size_t i = members[k];
      if (j >= input.configurations[i].jobs.size()) continue;
      const JobFinish& job = input.configurations[i].jobs[j];
      if (!job.finish.present()) continue;
      // Policies side by side within the job's row, so equal finishes do not hide each other.
      const double y = mid + (static_cast<double>(k) - (static_cast<double>(members.size()) - 1.0) / 2.0) *
                                 std::min(3.0, 12.0 / static_cast<double>(members.size()));
      const double mean = turnaround(job, job.finish.mean);
      const bool late = std::isfinite(deadline) && job.finish.mean > deadline;
      svg += "<g class=\"job-point" + std::string(late ? " missed" : "") + "\" style=\"color:" + styles[i].colour +
             "\"><title>" + html_escape(names[j].name + ", " + labels[i]) + ": " + display_number(mean, 2) + " h [" +
             display_number(turnaround(job, job.finish.ci_low), 2) + ", " +
             display_number(turnaround(job, job.finish.ci_high), 2) + "]" + (late ? ", after the deadline" : "") +
             "</title>";
      if (job.finish.ci_low < job.finish.ci_high) {
        svg += "<line class=\"error\" x1=\"" + svg_number(x(turnaround(job, job.finish.ci_low))) + "\" x2=\"" +
               svg_number(x(turnaround(job, job.finish.ci_high))) + "\" y1=\"" + svg_number(y) + "\" y2=\"" +
               svg_number(y) + "\"/>";
      }
      if (late)
        svg +=
            "<circle class=\"deadline-miss\" cx=\"" + svg_number(x(mean)) + "\" cy=\"" + svg_number(y) + "\" r=\"7\"/>";
      svg += marker_svg(styles[i], x(mean), y, 3.5, "mark") + "</g>";
    }
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  std::vector<std::string> shown;
  std::vector<SeriesStyle> shown_styles;
  for (const std::size_t i : members) {
    shown.push_back(labels[i]);
    shown_styles.push_back(styles[i]);
  }
  html += std::string("<p class=\"note\">") +
          (arrivals ? "Each job's turnaround (finish \xE2\x88\x92 arrival) under each policy"
                    : "When each job finished under each policy, in hours after the campaign's start: its "
                      "turnaround when the jobs arrive together at the start (--trials); the output gives no "
                      "arrivals of a --jobs stream") +
          ", mean over the runs with the 95% interval" +
          (std::isfinite(deadline) && !arrivals ? "; the dashed red line is the deadline, a ring a job past it" : "") +
          (names.size() > rows ? "; the first " + std::to_string(rows) + " of " + std::to_string(names.size()) + " jobs"
                               : "") +
          ".</p>\n<figure>\n" + svg + "</figure>\n" + series_legend(shown, shown_styles);
  return html + "</section>\n";
}

std::string break_even_section(const ReportInput& input, const std::vector<std::string>& labels,
                               const SeriesStyles& styles) {
  std::string html = "<section id=\"break-even\"><h2>Break-even against the managed services</h2>\n";
  if (!input.break_even || input.break_even->policies.empty()) {
    return html +
           "<p class=\"note\">Run the campaign with <code>--engineering-cost 8000/month</code> (the monthly cost of "
           "running it yourself) to see above which monthly spend each policy pays for that work "
           "(docs/managed.md#break-even).</p></section>\n";
  }
  const CampaignBreakEven& b = *input.break_even;
  const double e = b.engineering_per_month;
  double widest = 0.0;
  for (const auto& p : b.policies) {
    if (p.monthly_spend) widest = std::max(widest, *p.monthly_spend);
  }
  const double spend_high = widest > 0.0 ? 1.5 * widest : std::max(10.0 * e, 1.0);
  double low = -e, high = 0.0;
  for (const auto& p : b.policies) {
    low = std::min(low, p.saving_fraction * spend_high - e);
    high = std::max(high, p.saving_fraction * spend_high - e);
  }
  const ChartFrame frame(720, 380, nice_ticks(0.0, spend_high), nice_ticks(low, high));
  std::string svg = frame.open("chart break-even", "net monthly saving against the managed spend it replaces",
                               "monthly spend at managed prices (USD)", "net saving per month (USD)");
  svg += "<line class=\"break-even-zero\" x1=\"" + std::to_string(frame.left()) + "\" x2=\"" +
         std::to_string(frame.right()) + "\" y1=\"" + svg_number(frame.y(0.0)) + "\" y2=\"" + svg_number(frame.y(0.0)) +
         "\"/>\n";
  std::vector<LabelledPoint> named;
  std::string table =
      "<table class=\"break-even\"><thead><tr><th>policy</th><th>saves (of the managed cost)</th><th>pays off above "
      "(managed spend per month)</th></tr></thead><tbody>\n";
  for (const auto& p : b.policies) {
    SeriesStyle style;
    std::string label = p.policy;
    for (std::size_t i = 0; i < input.configurations.size(); ++i) {
      if (input.configurations[i].policy == p.policy && !input.configurations[i].managed) {
        style = styles[i];
        label = labels[i];
        break;
      }
    }
    const double end = p.saving_fraction * spend_high - e;
    svg += "<line class=\"break-even-line\" x1=\"" + svg_number(frame.x(0.0)) + "\" y1=\"" + svg_number(frame.y(-e)) +
           "\" x2=\"" + svg_number(frame.x(spend_high)) + "\" y2=\"" + svg_number(frame.y(end)) + "\" stroke=\"" +
           style.colour + "\" stroke-width=\"2\"><title>" + html_escape(label) + "</title></line>\n";
    const std::string verdict = p.monthly_spend ? display_usd(*p.monthly_spend) + "/month" : "never pays off";
    if (p.monthly_spend) {
      svg += "<g class=\"break-even-point\"><title>" + html_escape(label) + ": pays off above " + verdict + "</title>" +
             marker_svg(style, frame.x(*p.monthly_spend), frame.y(0.0), 5.0, "mark") + "</g>\n";
      named.push_back({frame.x(*p.monthly_spend), frame.y(0.0), label + ": " + verdict});
    } else {
      named.push_back({frame.x(spend_high), frame.y(end), label + ": " + verdict});
    }
    table += "<tr><td>" + legend_glyph(style) + html_escape(label) + "</td><td class=\"num\">" +
             display_number(100.0 * p.saving_fraction, 1) + "%</td><td class=\"num\">" + verdict + "</td></tr>\n";
  }
  svg += point_labels_svg(named, {static_cast<double>(frame.left()), static_cast<double>(frame.right()),
                                  static_cast<double>(frame.top()), static_cast<double>(frame.bottom())}) +
         "</svg>\n";
  return html + "<p class=\"note\">Against " + html_escape(b.managed) + " (" + display_usd(b.managed_cost) +
         " per campaign), with " + display_usd(e) +
         " a month of engineering to run it yourself: a policy that saves the fraction s of the managed cost nets "
         "s \xC3\x97 spend \xE2\x88\x92 " +
         display_usd(e) + " a month, and pays off where its line crosses zero.</p>\n<figure>\n" + svg + "</figure>\n" +
         table + "</tbody></table></section>\n";
}

}  // namespace spotsim

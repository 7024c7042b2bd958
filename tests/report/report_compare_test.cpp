// The report's comparison page and what every page now has (issue 35, docs/report.md): several simulate results on
// one page with their timelines on one time axis; one style per policy across every chart, with marker shapes
// beyond 8 series; points labelled directly; deadline misses marked; no chart of one point; zoomable timelines; the
// campaign's per-job turnaround and break-even drawn.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "app/report/campaign_charts.hpp"
#include "app/report/point_labels.hpp"
#include "app/report/report_comparison.hpp"
#include "app/report/report_html.hpp"
#include "app/report/report_page.hpp"
#include "app/report/report_style.hpp"
#include "app/report/result_charts.hpp"
#include "app/report/timeline_chart.hpp"
#include "app/report_writer.hpp"
#include "app/simulation_request.hpp"
#include "base/errors.hpp"
#include "tests/report/report_test_files.hpp"

namespace spotsim {
namespace {

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

// The values of `attribute` on every element of `tag` with class `css_class`, in document order.
std::vector<std::string> attributes(const std::string& html, const std::string& opening, const std::string& attribute) {
  std::vector<std::string> values;
  for (std::size_t at = html.find(opening); at != std::string::npos; at = html.find(opening, at + 1)) {
    const std::string element = html.substr(at, html.find('>', at) - at);
    const std::size_t key = element.find(" " + attribute + "=\"");
    if (key == std::string::npos) continue;
    const std::size_t from = key + attribute.size() + 3;
    values.push_back(element.substr(from, element.find('"', from) - from));
  }
  return values;
}

ReportConfiguration point(const std::string& policy, double cost, double hours, const std::string& checkpoint = "c") {
  ReportConfiguration c;
  c.trace = "t";
  c.job = "job";
  c.policy = policy;
  c.checkpoint = checkpoint;
  c.cost = {cost, cost - 1, cost + 1};
  c.completion = {hours, hours - 1, hours + 1};
  c.deadline_met = {1.0, 1.0, 1.0};
  c.run_costs = {cost - 1, cost, cost + 1};
  c.run_completions = {hours - 1, hours, hours + 1};
  c.replications = 3;
  return c;
}

TEST(SeriesStyles, OnePolicyOneStyleAndShapesBeyondEight) {
  const SeriesStyles styles({"a", "b", "a", "c", "b"});
  EXPECT_STREQ(styles[0].colour, styles[2].colour);
  EXPECT_STREQ(styles[1].colour, styles[4].colour);
  EXPECT_STRNE(styles[0].colour, styles[1].colour);
  EXPECT_EQ(styles[0].variant, 0);
  EXPECT_EQ(styles[2].variant, 1);  // a's second configuration: dashed in line charts
  EXPECT_TRUE(styles[0].dash().empty());
  EXPECT_FALSE(styles[2].dash().empty());
  std::vector<std::string> many;
  for (int i = 0; i < 40; ++i) many.push_back("policy-" + std::to_string(i));
  const SeriesStyles forty(many);
  std::set<std::pair<std::string, MarkerShape>> seen;
  for (std::size_t i = 0; i < forty.size(); ++i) seen.insert({forty[i].colour, forty[i].shape});
  EXPECT_EQ(seen.size(), 40u);  // no two of 40 series look the same
  EXPECT_EQ(forty[0].shape, MarkerShape::kCircle);
  EXPECT_EQ(forty[8].shape, MarkerShape::kSquare);
  EXPECT_STREQ(forty[8].colour, forty[0].colour);
  EXPECT_NE(marker_svg(forty[8], 10, 10, 5, "mark").find("data-shape=\"square\""), std::string::npos);
  EXPECT_NE(marker_svg(forty[16], 10, 10, 5, "mark").find("data-shape=\"triangle\""), std::string::npos);
}

// A sweep's page: policy b is drawn in the same colour in the table, the cost/time chart, both CDFs and the legend,
// though its configurations are the 2nd and 4th.
TEST(ReportPage, APolicyHasOneColourInEveryChart) {
  ReportInput input;
  input.source = "sweep";
  input.command = "sweep";
  input.configurations = {point("a", 10, 5), point("b", 8, 6), point("a", 9, 7, "d"), point("b", 7, 8, "d")};
  mark_pareto_frontier(input.configurations);
  const std::string html = render_report_html(input, nullptr);
  const std::string b = kPalette[1];
  // cost/time marks, CDF curves and glyphs of b (table, legend): every one in b's colour.
  std::size_t b_uses = count(html, "fill=\"" + b + "\"") + count(html, "stroke:" + b) + count(html, "color:" + b);
  EXPECT_GE(b_uses, 2u * (1 + 2) + 4u);  // 2 points and 4 curves, plus the glyphs
  for (const std::string& colour : attributes(html, "<g class=\"point", "style")) {
    EXPECT_TRUE(colour == "color:" + std::string(kPalette[0]) || colour == "color:" + b) << colour;
  }
  for (const std::string& stroke : attributes(html, "<polyline class=\"cdf\"", "style")) {
    EXPECT_TRUE(stroke.rfind("stroke:" + std::string(kPalette[0]), 0) == 0 || stroke.rfind("stroke:" + b, 0) == 0)
        << stroke;
  }
  const std::string body = html.substr(html.find("</style>"));
  EXPECT_EQ(count(body, "stroke-dasharray:"), 4u);  // the second configuration of each policy, in both CDFs
}

TEST(ResultCharts, PointsAreLabelledDirectlyInsideThePlot) {
  std::vector<ReportConfiguration> c = {point("<a>", 100, 10), point("b", 80, 60)};
  mark_pareto_frontier(c);
  const std::string svg =
      cost_time_chart(c, {0, 1}, {"<a> label", "b, whose label is long"}, SeriesStyles({"<a>", "b"}), "t");
  EXPECT_EQ(count(svg, "<text class=\"point-label\""), 2u);
  EXPECT_NE(svg.find(">&lt;a&gt; label</text>"), std::string::npos);
  // The rightmost point's label is written to its left, so it does not run out of the chart.
  EXPECT_NE(svg.find("text-anchor=\"end\">b, whose label is long</text>"), std::string::npos);
  EXPECT_NE(svg.find("text-anchor=\"start\">&lt;a&gt; label</text>"), std::string::npos);
  // Two points at the same place: the second label moves a line away instead of covering the first.
  const std::string twin = point_labels_svg({{100, 100, "one"}, {100, 100, "two"}}, {0, 600, 0, 400});
  const std::vector<std::string> ys = attributes(twin, "<text class=\"point-label\"", "y");
  ASSERT_EQ(ys.size(), 2u);
  EXPECT_NE(ys[0], ys[1]);
  EXPECT_NE(point_labels_svg({{0, 0, std::string(80, 'x')}}, {0, 600, 0, 400}).find("\xE2\x80\xA6"),
            std::string::npos);  // cut with an ellipsis
}

TEST(ResultCharts, DeadlineMissesAreMarked) {
  std::vector<ReportConfiguration> c = {point("a", 100, 10), point("b", 80, 60)};
  c[1].deadline_met = {0.8, 0.7, 0.9};
  mark_pareto_frontier(c);
  const std::string svg = cost_time_chart(c, {0, 1}, {"a", "b"}, SeriesStyles({"a", "b"}), "t");
  EXPECT_EQ(count(svg, "class=\"deadline-miss\""), 1u);
  EXPECT_NE(svg.find("b \xE2\x80\x94 deadline met 80%"), std::string::npos);
  EXPECT_NE(svg.find("<g class=\"point missed\""), std::string::npos);
  ReportInput input;
  input.source = "s";
  input.command = "sweep";
  input.configurations = c;
  const std::string html = render_report_html(input, nullptr);
  EXPECT_EQ(count(html, "<tr class=\"missed\">"), 1u);
}

TEST(ReportPage, OneConfigurationGetsNumbersNotAChartOfOnePoint) {
  ReportInput input;
  input.source = "r.json";
  input.command = "simulate";
  input.configurations = {point("a", 100, 10)};
  const std::string html = render_report_html(input, nullptr);
  EXPECT_NE(html.find("id=\"cost-time\""), std::string::npos);
  EXPECT_EQ(html.find("chart cost-time"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"numbers\">a + c: mean cost 100.00"), std::string::npos);
  EXPECT_NE(html.find("no chart of one point"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);  // no timelines, nothing to zoom: no script at all
}

const std::string kTimelineHeader =
    R"({"format": "spotsim-timeline", "version": 1, "replications": [0, 1], "policy": "p",)"
    R"( "zones": [{"index": 0, "name": "z", "region": "r"}], "job": {"deadline_hours": 10}})";

std::string event(int replication, double t, const std::string& name, const std::string& extra = "") {
  return R"({"replication": )" + std::to_string(replication) + R"(, "t_hours": )" + std::to_string(t) +
         R"(, "event": ")" + name + R"(", "phase": "computing", "purchase": "spot", "zone": 0, "nodes": 1,)" +
         R"( "progress_hours": 0, "committed_hours": 0, "cost_usd": 2.5)" + extra + "}\n";
}

// Replication 0 finishes at 8 h, replication 1 at 14 h: after the 10-h deadline.
std::string two_runs(double scale = 1.0) {
  return kTimelineHeader + "\n" + event(0, 0, "instance_acquired") + event(0, 1, "phase") +
         event(0, 8 * scale, "finished", R"(, "completed": true)") + event(1, 0, "instance_acquired") +
         event(1, 3, "preemption") + event(1, 14 * scale, "finished", R"(, "completed": true)");
}

TEST(TimelineChart, TheDeadlineIsALineWithThePastShadedAndLateRunsSaySo) {
  const TimelineFile file = read_timeline_text(two_runs(), "t.jsonl");
  EXPECT_EQ(timeline_deadline_hours(file), 10.0);
  const std::string svg = timeline_chart(file);
  EXPECT_EQ(count(svg, "class=\"deadline\""), 1u);
  EXPECT_EQ(count(svg, "class=\"past-deadline\""), 1u);
  EXPECT_EQ(count(svg, "missed the deadline"), 1u);  // replication 1 only
  EXPECT_NE(svg.find("<g class=\"run missed\" data-replication=\"1\""), std::string::npos);
  // What the zoom script needs: the axis range, the plot's columns, stretchable lanes, marks that keep their shape.
  EXPECT_NE(svg.find("data-x-low=\"0.00\" data-x-high=\"14.00\""), std::string::npos) << svg.substr(0, 400);
  EXPECT_NE(svg.find("data-plot-left=\"150\" data-plot-right=\"1080\""), std::string::npos);
  EXPECT_EQ(count(svg, "<g class=\"lanes\">"), 3u);  // one per run, one for the deadline
  EXPECT_NE(svg.find("<path class=\"mark-preemption\""), std::string::npos);
  EXPECT_NE(svg.find("data-x=\""), std::string::npos);
  TimelineChartOptions wide;
  wide.span_hours = 50.0;
  EXPECT_NE(timeline_chart(file, wide).find("data-x-high=\"50.00\""), std::string::npos);
}

class ComparisonTest : public ReportFilesTest {
 protected:
  // A real simulate JSON output of `policy`, with the timelines of its first runs.
  std::string simulate(const std::string& name, const std::string& policy) {
    SimulationRequest request = small_request(policy);
    request.with_timeline = true;
    return write(name, report_json(run_simulation(request)));
  }
};

TEST_F(ComparisonTest, TwoResultsShareOnePageAndOneTimeAxis) {
  const std::string a = simulate("a.json", "spot-only"), b = simulate("b.json", "adaptive");
  const std::string html = report_page_html({a, b}, {});
  EXPECT_NE(html.find("2 results compared"), std::string::npos);
  EXPECT_EQ(count(html, "<svg class=\"chart cost-time\""), 1u);
  EXPECT_EQ(count(html, "<g class=\"point"), 2u);
  EXPECT_NE(html.find(">a.json \xC2\xB7 spot-only + "), std::string::npos);  // labelled by input and policy
  EXPECT_NE(html.find(">b.json \xC2\xB7 adaptive + "), std::string::npos);
  const std::vector<std::string> highs = attributes(html, "<svg class=\"chart timeline\"", "data-x-high");
  ASSERT_EQ(highs.size(), 2u);
  EXPECT_EQ(highs[0], highs[1]);
  EXPECT_EQ(count(html, "<script>"), 1u);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(count(html, "<figure class=\"compared\""), 2u);
  EXPECT_EQ(count(html, "<h3>"), 2u);  // a manifest per input
}

TEST_F(ComparisonTest, TimelinesAreMatchedByPositionAndCountsMustAgree) {
  const std::string a = simulate("a.json", "spot-only"), b = simulate("b.json", "adaptive");
  const std::string t = write("t.jsonl", two_runs());
  const std::string message = error_of([&] { report_page_html({a, b}, {t}); });
  EXPECT_NE(message.find("--timeline: 1 files for 2 RESULTs"), std::string::npos) << message;
  const std::string late = write("late.jsonl", two_runs(3.0));
  const std::string html = report_page_html({a, b}, {t, late});
  const std::vector<std::string> highs = attributes(html, "<svg class=\"chart timeline\"", "data-x-high");
  ASSERT_EQ(highs.size(), 2u);
  EXPECT_EQ(highs[0], highs[1]);  // the shorter one's axis reaches the longer one's 42 h too
  EXPECT_EQ(std::stod(highs[0]), 45.0);
}

TEST_F(ComparisonTest, WhatCannotBeComparedIsRefusedNamingTheFile) {
  const std::string a = simulate("a.json", "spot-only");
  const std::string campaign = write("c.json", R"({"format": "spotsim-campaign", "policies": [{"policy": "p",
      "cost_total": {"mean": 1, "ci_low": 1, "ci_high": 1}, "makespan_hours": {"mean": 1, "ci_low": 1,
      "ci_high": 1}}]})");
  const std::string message = error_of([&] { report_page_html({a, campaign}, {}); });
  EXPECT_NE(message.find("c.json: a campaign output cannot be compared"), std::string::npos) << message;
  EXPECT_EQ(input_names({"x/r.json", "y/r.json", "z/s.json"}),
            (std::vector<std::string>{"x/r.json", "y/r.json", "s.json"}));
}

TEST_F(ComparisonTest, ACampaignDrawsTurnaroundPerJobAndTheBreakEven) {
  const auto summary = [](double mean) {
    return nlohmann::json{{"mean", mean}, {"ci_low", mean - 1}, {"ci_high", mean + 1}};
  };
  nlohmann::json doc = {
      {"format", "spotsim-campaign"}, {"trace", "t"}, {"jobs", 2}, {"replications", 10}, {"deadline_hours", 20.0}};
  for (const auto& [policy, managed, cost] :
       {std::tuple{"spot-<i>only", false, 100.0}, {"adaptive", false, 80.0}, {"sagemaker spot", true, 120.0}}) {
    doc["policies"].push_back({{"policy", policy},
                               {"managed", managed},
                               {"cost_total", summary(cost)},
                               {"makespan_hours", summary(15.0)},
                               {"p_deadline_met", 1.0},
                               {"jobs",
                                {{{"name", "trial-1"}, {"finish_hours", summary(6.0)}, {"completed_share", 1.0}},
                                 {{"name", "trial-2"}, {"finish_hours", summary(25.0)}, {"completed_share", 1.0}}}}});
  }
  doc["break_even"] = {
      {"engineering_per_month", 8000.0},
      {"managed", "sagemaker spot"},
      {"managed_cost", 120.0},
      {"policies",
       {{{"policy", "spot-<i>only"}, {"saving_fraction", 1.0 / 6}, {"break_even_monthly_spend", 48000.0}},
        {{"policy", "adaptive"}, {"saving_fraction", 1.0 / 3}, {"break_even_monthly_spend", 24000.0}}}}};
  const std::string html = report_page_html({write("c.json", doc.dump())}, {});
  EXPECT_NE(html.find("<svg class=\"chart job-finish\""), std::string::npos);
  EXPECT_EQ(count(html, "<g class=\"job\">"), 2u);
  EXPECT_EQ(count(html, "<g class=\"job-point missed\""), 3u);  // trial-2 ends past the 20-h deadline, per policy
  EXPECT_NE(html.find("<svg class=\"chart break-even\""), std::string::npos);
  EXPECT_EQ(count(html, "<g class=\"break-even-point\">"), 2u);
  EXPECT_NE(html.find("adaptive + : $24000/month"), std::string::npos);
  EXPECT_EQ(html.find("<i>only"), std::string::npos);  // escaped everywhere
  doc.erase("break_even");
  EXPECT_NE(report_page_html({write("c2.json", doc.dump())}, {}).find("--engineering-cost"), std::string::npos);
}

}  // namespace
}  // namespace spotsim

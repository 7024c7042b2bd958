// The report's building blocks: round axis ticks, empirical CDFs, HTML escaping, the Pareto frontier's order.
#include <gtest/gtest.h>

#include <cmath>

#include "app/report/axis_ticks.hpp"
#include "app/report/empirical_cdf.hpp"
#include "app/report/html_text.hpp"
#include "app/report/report_input.hpp"
#include "app/report/result_charts.hpp"

namespace spotsim {
namespace {

TEST(AxisTicks, RoundStepsCoverTheData) {
  const AxisTicks t = nice_ticks(0.0, 97.0);
  EXPECT_EQ(t.step, 20.0);
  EXPECT_EQ(t.low, 0.0);
  EXPECT_EQ(t.high, 100.0);
  EXPECT_EQ(t.values, (std::vector<double>{0, 20, 40, 60, 80, 100}));
  const AxisTicks small = nice_ticks(0.013, 0.087);
  EXPECT_NEAR(small.step, 0.02, 1e-15);
  EXPECT_LE(small.low, 0.013);
  EXPECT_GE(small.high, 0.087);
  const AxisTicks odd = nice_ticks(33.1, 61.9);  // (61.9 - 33.1) / 4 = 7.2: rounds up to a step of 10
  EXPECT_EQ(odd.step, 10.0);
  EXPECT_EQ(odd.low, 30.0);
  EXPECT_EQ(odd.high, 70.0);
  const AxisTicks mid = nice_ticks(33.1, 51.9);  // 4.7: a step of 5
  EXPECT_EQ(mid.step, 5.0);
  EXPECT_EQ(mid.low, 30.0);
  EXPECT_EQ(mid.high, 55.0);
}

TEST(AxisTicks, DegenerateInputsGiveAUsableRange) {
  const AxisTicks one = nice_ticks(5.0, 5.0);
  EXPECT_LT(one.low, 5.0);
  EXPECT_GT(one.high, 5.0);
  EXPECT_GE(one.values.size(), 2u);
  const AxisTicks none = nice_ticks(NAN, INFINITY);
  EXPECT_LT(none.low, none.high);
  const AxisTicks reversed = nice_ticks(10.0, 0.0);
  EXPECT_EQ(reversed.low, 0.0);
  EXPECT_EQ(reversed.high, 10.0);
  for (const double v : nice_ticks(-0.3, 0.3).values) EXPECT_FALSE(std::signbit(v) && v == 0.0);
}

TEST(AxisTicks, LabelsHaveTheDecimalsTheStepNeeds) {
  EXPECT_EQ(tick_label(40.0, 20.0), "40");
  EXPECT_EQ(tick_label(0.25, 0.05), "0.25");
  EXPECT_EQ(tick_label(0.2, 0.2), "0.2");
  EXPECT_EQ(tick_label(-0.0, 1.0), "0");
  EXPECT_EQ(tick_label(1200.0, 200.0), "1200");
}

TEST(EmpiricalCdf, StepsAtDistinctValues) {
  const auto cdf = empirical_cdf({3.0, 1.0, 2.0, 2.0, NAN});
  ASSERT_EQ(cdf.size(), 3u);
  EXPECT_EQ(cdf[0].x, 1.0);
  EXPECT_EQ(cdf[0].probability, 0.25);
  EXPECT_EQ(cdf[1].x, 2.0);
  EXPECT_EQ(cdf[1].probability, 0.75);
  EXPECT_EQ(cdf[2].x, 3.0);
  EXPECT_EQ(cdf[2].probability, 1.0);
  EXPECT_TRUE(empirical_cdf({}).empty());
}

TEST(EmpiricalCdf, ThinnedKeepingBothEnds) {
  std::vector<double> values;
  for (int i = 0; i < 10000; ++i) values.push_back(i * 0.5);
  const auto cdf = empirical_cdf(values, 100);
  ASSERT_EQ(cdf.size(), 100u);
  EXPECT_EQ(cdf.front().x, 0.0);
  EXPECT_EQ(cdf.back().x, 4999.5);
  EXPECT_EQ(cdf.back().probability, 1.0);
  for (std::size_t i = 1; i < cdf.size(); ++i) EXPECT_GT(cdf[i].probability, cdf[i - 1].probability);
}

TEST(HtmlText, UserStringsAreEscaped) {
  EXPECT_EQ(html_escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(html_escape(std::string("a\x01"
                                    "b\x7f",
                                    4)),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(html_escape("tab\tnew\nline"), "tab\tnew\nline");
  EXPECT_EQ(svg_number(-0.001), "0.00");
  EXPECT_EQ(display_number(NAN, 2), "\xE2\x80\x93");
  EXPECT_EQ(display_number(-0.0001, 2), "0.00");
}

ReportConfiguration point(const char* policy, double cost, double hours, const char* trace = "t") {
  ReportConfiguration c;
  c.trace = trace;
  c.job = "job";
  c.policy = policy;
  c.checkpoint = "young-daly";
  c.cost = {cost, cost - 1, cost + 1};
  c.completion = {hours, hours - 1, hours + 1};
  return c;
}

TEST(ParetoFrontier, MarkedPerTraceAndJoinedByCompletionTime) {
  std::vector<ReportConfiguration> c = {point("a", 100, 50), point("b", 80, 60), point("c", 90, 65),
                                        point("d", 120, 40), point("e", 500, 500, "other")};
  mark_pareto_frontier(c);
  EXPECT_TRUE(c[0].pareto);
  EXPECT_TRUE(c[1].pareto);
  EXPECT_FALSE(c[2].pareto);  // b is cheaper and faster
  EXPECT_TRUE(c[3].pareto);
  EXPECT_TRUE(c[4].pareto);  // alone on its trace
  EXPECT_EQ(frontier_order(c, {0, 1, 2, 3}), (std::vector<std::size_t>{3, 0, 1}));
}

TEST(ResultCharts, CostTimeChartDrawsEveryPointWithIntervalsAndFrontier) {
  std::vector<ReportConfiguration> c = {point("a", 100, 50), point("b", 80, 60), point("<c>", 90, 65)};
  mark_pareto_frontier(c);
  const std::vector<std::string> labels = {"a", "b", "<c>"};
  const std::string svg = cost_time_chart(c, {0, 1, 2}, labels, SeriesStyles({"a", "b", "<c>"}), "title");
  EXPECT_NE(svg.find("class=\"frontier\""), std::string::npos);
  std::size_t marks = 0, errors = 0;
  for (std::size_t at = 0; (at = svg.find("class=\"mark", at)) != std::string::npos; ++at) ++marks;
  for (std::size_t at = 0; (at = svg.find("class=\"error\"", at)) != std::string::npos; ++at) ++errors;
  EXPECT_EQ(marks, 3u);
  EXPECT_EQ(errors, 6u);
  EXPECT_EQ(svg.find("<c>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;c&gt;"), std::string::npos);
}

}  // namespace
}  // namespace spotsim

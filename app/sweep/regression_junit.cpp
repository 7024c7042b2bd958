// `spotsim regress --format junit`: JUnit XML as CI systems read it (GitLab's artifacts:reports:junit, Jenkins'
// junit step, GitHub test-report actions): one <testsuite> per baseline, one <testcase> per (configuration,
// metric) and per (configuration, --require rule); a regression or a broken rule is a <failure> whose message
// carries the numbers behind the verdict; a skipped baseline is one <skipped> test case with the reason.
#include <cmath>
#include <cstdio>

#include "app/sweep/regression_report.hpp"
#include "base/text_escape.hpp"

namespace spotsim {

namespace {

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string attribute(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + xml_escape(value) + "\"";
}

std::string class_name(const ConfigurationLabel& c) { return c.trace + " / " + c.job; }

// "baseline mean 97.9561 (sd 12.1, n 300), new mean 103.374 (sd 13.2, n 300), worse by +5.4178 (+5.53%), ..."
std::string comparison_facts(const MetricComparison& c, const RegressionRule& rule) {
  const double percent = c.baseline.mean != 0.0 ? 100.0 * c.worse_by / std::fabs(c.baseline.mean) : 0.0;
  return "baseline mean " + number("%.6g", c.baseline.mean) + " (sd " + number("%.6g", c.baseline.sd) + ", n " +
         std::to_string(c.baseline.n) + "), new mean " + number("%.6g", c.fresh.mean) + " (sd " +
         number("%.6g", c.fresh.sd) + ", n " + std::to_string(c.fresh.n) + "), worse by " +
         number("%+.6g", c.worse_by) + " (" + number("%+.2f", percent) + "%), Welch one-sided p " +
         number("%.2g", c.p_value) + " (alpha " + number("%g", rule.alpha) + "), threshold " +
         number("%.6g", c.threshold);
}

std::string comparison_case(const MetricComparison& c, const RegressionRule& rule) {
  std::string xml = "    <testcase" + attribute("classname", class_name(c.configuration)) +
                    attribute("name", c.configuration.policy + " / " + c.configuration.checkpoint + " / " + c.metric);
  if (c.verdict == Verdict::kUnchanged) return xml + "/>\n";
  const std::string facts = comparison_facts(c, rule);
  xml += ">\n";
  if (c.verdict == Verdict::kRegression) {
    const std::string message = c.metric + " regressed beyond Monte Carlo noise: " + facts;
    xml += "      <failure" + attribute("type", "regression") + attribute("message", message) + ">" +
           xml_escape(message) + "</failure>\n";
  } else {
    xml += "      <system-out>" + xml_escape(std::string(verdict_name(c.verdict)) + ": " + facts) + "</system-out>\n";
  }
  return xml + "    </testcase>\n";
}

std::string requirement_case(const RequirementCheck& r) {
  std::string xml =
      "    <testcase" + attribute("classname", class_name(r.configuration)) +
      attribute("name", r.configuration.policy + " / " + r.configuration.checkpoint + " / require " + r.requirement);
  if (r.met) return xml + "/>\n";
  const std::string message =
      "rule " + r.requirement + " broken: new mean of " + r.metric + " is " + number("%.6g", r.mean);
  return xml + ">\n      <failure" + attribute("type", "requirement") + attribute("message", message) + ">" +
         xml_escape(message) + "</failure>\n    </testcase>\n";
}

std::string suite(const BaselineOutcome& b, const RegressionReport& report) {
  const bool skipped = !b.skipped.empty();
  const std::size_t tests = skipped ? 1 : b.comparisons.size() + b.requirement_checks.size();
  const std::size_t failures = b.count(Verdict::kRegression) + b.broken_requirements();
  std::string xml = "  <testsuite" + attribute("name", b.file) + attribute("tests", std::to_string(tests)) +
                    attribute("failures", std::to_string(failures)) + attribute("errors", "0") +
                    attribute("skipped", skipped ? "1" : "0") + ">\n    <properties>\n";
  const auto property = [&](const std::string& name, const std::string& value) {
    xml += "      <property" + attribute("name", name) + attribute("value", value) + "/>\n";
  };
  if (!b.description.empty()) property("description", b.description);
  property("alpha", number("%g", report.rule.alpha));
  property("relative", number("%g", report.rule.relative_threshold));
  if (!skipped) property("replications", std::to_string(b.replications));
  for (const std::string& s : report.substitutions) property("substitute", s);
  for (const std::string& note : b.notes) property("note", note);
  xml += "    </properties>\n";
  if (skipped) {
    xml += "    <testcase" + attribute("classname", b.file) + attribute("name", "baseline") + ">\n      <skipped" +
           attribute("message", b.skipped) + "/>\n    </testcase>\n";
  }
  for (const MetricComparison& c : b.comparisons) xml += comparison_case(c, report.rule);
  for (const RequirementCheck& r : b.requirement_checks) xml += requirement_case(r);
  return xml + "  </testsuite>\n";
}

}  // namespace

std::string xml_escape(const std::string& text) { return escape_markup(text, "&apos;"); }

std::string regression_junit(const RegressionReport& report) {
  std::size_t tests = 0, skipped = 0;
  for (const BaselineOutcome& b : report.baselines) {
    tests += b.skipped.empty() ? b.comparisons.size() + b.requirement_checks.size() : 1;
    skipped += !b.skipped.empty();
  }
  const std::size_t failures = report.regressions() + report.broken_requirements();
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" + attribute("name", "spotsim regress") +
                    attribute("tests", std::to_string(tests)) + attribute("failures", std::to_string(failures)) +
                    attribute("errors", "0") + attribute("skipped", std::to_string(skipped)) + ">\n";
  for (const BaselineOutcome& b : report.baselines) xml += suite(b, report);
  return xml + "</testsuites>\n";
}

}  // namespace spotsim

#include "app/sweep/regression_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace spotsim {

namespace {

// A table whose text columns grow to their longest entry (never cut: "aws-us-west-2-" once hid which of three
// traces regressed) and whose numeric columns are right-aligned.
class TextTable {
 public:
  // `min_widths` keep the familiar layout when every entry is short; 0 in `right_aligned` = left-aligned.
  TextTable(std::vector<std::string> header, std::vector<std::size_t> min_widths, std::vector<bool> right_aligned)
      : widths_(std::move(min_widths)), right_(std::move(right_aligned)) {
    add(std::move(header));
  }
  void add(std::vector<std::string> row) {
    for (std::size_t i = 0; i < row.size(); ++i) widths_[i] = std::max(widths_[i], row[i].size());
    rows_.push_back(std::move(row));
  }
  std::string render() const {
    std::string out;
    for (const auto& row : rows_) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i) {
        const std::string padding(widths_[i] - row[i].size(), ' ');
        if (i > 0) line += ' ';
        line += right_[i] ? padding + row[i] : row[i] + padding;
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
    return out;
  }

 private:
  std::vector<std::size_t> widths_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

std::string printed(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

const char* verdict_label(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "REGRESSION";
    case Verdict::kImprovement: return "improved";
    case Verdict::kNoise: return "noise";
    case Verdict::kUnchanged: return "unchanged";
  }
  return "unchanged";  // unreachable: every enumerator is handled above
}

std::string comparison_table(const std::vector<MetricComparison>& rows, bool all) {
  TextTable table({"verdict", "trace", "job", "policy", "checkpoint", "metric", "baseline", "new", "worse by", "%", "p",
                   "threshold"},
                  {11, 14, 22, 20, 28, 17, 12, 12, 11, 8, 9, 10},
                  {false, false, false, false, false, false, true, true, true, true, true, true});
  std::size_t shown = 0;
  for (const MetricComparison& r : rows) {
    if (!all && r.verdict == Verdict::kUnchanged) continue;
    ++shown;
    const double percent = r.baseline.mean != 0.0 ? 100.0 * r.worse_by / std::fabs(r.baseline.mean) : 0.0;
    const ConfigurationLabel& c = r.configuration;
    table.add({verdict_label(r.verdict), c.trace, c.job, c.policy, c.checkpoint, r.metric,
               printed("%.4f", r.baseline.mean), printed("%.4f", r.fresh.mean), printed("%+.4f", r.worse_by),
               printed("%+.2f%%", percent), printed("%.2g", r.p_value), printed("%.4f", r.threshold)});
  }
  return shown == 0 ? "(no metric moved)\n" : table.render();
}

std::string broken_rule_table(const std::vector<RequirementCheck>& checks) {
  TextTable table({"broken rule", "trace", "job", "policy", "checkpoint", "new"}, {11, 14, 22, 20, 28, 12},
                  {false, false, false, false, false, true});
  for (const RequirementCheck& check : checks) {
    if (check.met) continue;
    const ConfigurationLabel& c = check.configuration;
    table.add({check.requirement, c.trace, c.job, c.policy, c.checkpoint, printed("%.4f", check.mean)});
  }
  return table.render();
}

}  // namespace

std::size_t BaselineOutcome::count(Verdict verdict) const {
  return static_cast<std::size_t>(std::count_if(comparisons.begin(), comparisons.end(),
                                                [&](const MetricComparison& c) { return c.verdict == verdict; }));
}

std::size_t BaselineOutcome::broken_requirements() const {
  return static_cast<std::size_t>(std::count_if(requirement_checks.begin(), requirement_checks.end(),
                                                [](const RequirementCheck& c) { return !c.met; }));
}

std::size_t RegressionReport::regressions() const {
  std::size_t n = 0;
  for (const BaselineOutcome& b : baselines) n += b.count(Verdict::kRegression);
  return n;
}

std::size_t RegressionReport::broken_requirements() const {
  std::size_t n = 0;
  for (const BaselineOutcome& b : baselines) n += b.broken_requirements();
  return n;
}

std::vector<RequirementCheck> check_requirements(const BaselineEntry& fresh,
                                                 const std::vector<MetricRequirement>& requirements) {
  std::vector<RequirementCheck> checks;
  for (const MetricRequirement& requirement : requirements) {
    RequirementCheck check;
    check.configuration = {fresh.trace, fresh.job, fresh.policy, fresh.checkpoint};
    check.requirement = requirement.text;
    check.metric = requirement.metric;
    check.mean = fresh.metrics.at(requirement.metric).mean;
    check.met = requirement_met(requirement, check.mean);
    checks.push_back(std::move(check));
  }
  return checks;
}

std::string baseline_text(const BaselineOutcome& outcome, bool all) {
  if (!outcome.skipped.empty()) return outcome.file + ": skipped (" + outcome.skipped + ")\n";
  std::string out = outcome.file + ": " + std::to_string(outcome.configurations) + " configurations x " +
                    std::to_string(outcome.replications) + " replications, " +
                    std::to_string(outcome.comparisons.size()) +
                    " metrics compared: " + std::to_string(outcome.moved()) + " moved, " +
                    std::to_string(outcome.count(Verdict::kRegression)) + " regressed, " +
                    std::to_string(outcome.count(Verdict::kImprovement)) + " improved";
  if (!outcome.requirement_checks.empty()) {
    out += "; " + std::to_string(outcome.requirement_checks.size()) +
           " rule checks: " + std::to_string(outcome.broken_requirements()) + " broken";
  }
  out += "\n";
  for (const std::string& note : outcome.notes) out += "  note: " + note + "\n";
  if (outcome.moved() > 0 || all) out += comparison_table(outcome.comparisons, all);
  if (outcome.broken_requirements() > 0) out += broken_rule_table(outcome.requirement_checks);
  return out;
}

std::string regression_text(const RegressionReport& report, bool all) {
  std::string out;
  for (const BaselineOutcome& b : report.baselines) out += baseline_text(b, all);
  return out;
}

}  // namespace spotsim

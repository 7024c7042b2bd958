#include "app/report_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string_view>

#include "app/optimum_grid_report.hpp"
#include "app/run_metrics.hpp"
#include "app/streaming_report.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"

namespace spotsim {

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string format_rounded(double value) {
  if (!std::isfinite(value)) return format_number(value);
  char buffer[64];
  if (std::fabs(value) >= 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
  }
  return buffer;
}

namespace {
nlohmann::json summary_json(const Summary& s) {
  return {{"n", s.n},     {"mean", s.mean}, {"sd", s.sd},   {"min", s.min},       {"max", s.max},
          {"p50", s.p50}, {"p95", s.p95},   {"p99", s.p99}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}
// "checkpoint interval: 1.52 h on spot, 2.00 h on on-demand": what the checkpoint policy set, from the per-run
// interval metrics; an interval that varied between or within runs shows its mean and range over the runs' means.
std::string checkpoint_interval_line(const SimulationReport& report) {
  const auto metrics = run_metrics();
  std::string parts;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (metrics[i].table_row != MetricDefinition::TableRow::kIntervalLine) continue;
    const Summary& s = report.summaries[i];
    if (s.n == 0) continue;
    const bool spot = std::string_view(metrics[i].name).find("spot") != std::string_view::npos;
    std::string text = format_fixed(s.mean, 2) + " h";
    if (format_fixed(s.min, 2) != format_fixed(s.max, 2)) {
      text = "mean " + text + " (" + format_fixed(s.min, 2) + ".." + format_fixed(s.max, 2) + " h)";
    }
    parts += (parts.empty() ? "" : ", ") + text + (spot ? " on spot" : " on on-demand");
  }
  return "checkpoint interval: " + (parts.empty() ? std::string("none (no periodic checkpoints)") : parts) + "\n";
}

// "Where the money went": the cost ledger's mean entries and their share of the mean total cost.
std::string ledger_block(const SimulationReport& report) {
  const auto metrics = run_metrics();
  double total = 0.0;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (std::string_view(metrics[i].name) == "cost_total") total = report.summaries[i].mean;
  }
  std::string out = "\nwhere the money went (mean USD per run, share of the mean total cost)\n";
  char line[256];
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const Summary& s = report.summaries[i];
    const auto row = metrics[i].table_row;
    if ((row != MetricDefinition::TableRow::kLedger && row != MetricDefinition::TableRow::kLedgerWhenNonZero) ||
        s.n == 0)
      continue;
    if (row == MetricDefinition::TableRow::kLedgerWhenNonZero && s.min == 0.0 && s.max == 0.0) continue;
    const double share = total > 0.0 ? 100.0 * s.mean / total : 0.0;
    std::snprintf(line, sizeof line, "  %-20s %11s %6s%%   [%s, %s]\n", metrics[i].label,
                  format_fixed(s.mean, 3).c_str(), format_fixed(share, 1).c_str(), format_fixed(s.ci_low, 3).c_str(),
                  format_fixed(s.ci_high, 3).c_str());
    out += line;
  }
  return out;
}
}  // namespace

std::string report_table(const SimulationReport& report) {
  const auto& m = report.manifest;
  std::ostringstream out;
  out << "spotsim " << m["version"].get<std::string>() << "  trace "
      << escape_control_characters(m["trace"]["name"].get<std::string>()) << "  policy "
      << escape_control_characters(m["policy"].get<std::string>()) << "  checkpoint "
      << escape_control_characters(m["checkpoint"].get<std::string>()) << "\n";
  const auto& job = m["job"];
  out << "job: " << format_rounded(job["work_hours"].get<double>()) << " h of work on " << job["nodes"].get<int>()
      << " node(s), checkpoint write " << format_rounded(job["checkpoint_write_s"].get<double>()) << " s, restore "
      << format_rounded(job["restore_s"].get<double>()) << " s, start-up "
      << format_rounded(job["startup_s"].get<double>()) << " s, deadline "
      << (job["deadline_hours"].is_null() ? std::string("none")
                                          : format_rounded(job["deadline_hours"].get<double>()) + " h")
      << "\n";
  if (job.contains("min_nodes")) {
    out << "elastic: trains on " << job["min_nodes"].get<int>() << " to " << job["nodes"].get<int>()
        << " instances; a change of the training set pauses " << format_rounded(job["reconfiguration_s"].get<double>())
        << " s\n";
  }
  out << m["replications"].get<std::uint64_t>() << " replications, seed " << m["seed"].get<std::uint64_t>() << "\n";
  out << checkpoint_interval_line(report) << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %-8s %11s %11s %11s %11s %11s   %s\n", "metric", "unit", "mean", "sd", "p50",
                "p95", "p99", "95% CI of mean");
  out << line;
  const auto metrics = run_metrics();
  using Row = MetricDefinition::TableRow;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const Summary& s = report.summaries[i];
    if (s.n == 0) continue;  // a metric this run does not have (regret without --regret)
    if (metrics[i].table_row == Row::kLedger || metrics[i].table_row == Row::kLedgerWhenNonZero ||
        metrics[i].table_row == Row::kIntervalLine) {
      continue;
    }
    if (metrics[i].table_row == Row::kMultiNode && job["nodes"].get<int>() == 1) continue;
    if (metrics[i].table_row == Row::kWhenNonZero && s.min == 0.0 && s.max == 0.0) continue;
    // Counts to 2 decimals, hours, dollars and fractions to 3 (their natural resolution: 0.001 h is 3.6 s). A ratio
    // (work per dollar, "inst-h/$") has the scale of its denominator, 0.01 on an 8-GPU H100, so it keeps at least 3
    // significant digits.
    const std::string unit = metrics[i].unit;
    const int d = unit == "count" ? 2 : unit.find('/') != std::string::npos ? decimals_for(s.mean, 3, 3) : 3;
    std::snprintf(line, sizeof line, "%-22s %-8s %11s %11s %11s %11s %11s   [%s, %s]\n", metrics[i].label,
                  metrics[i].unit, format_fixed(s.mean, d).c_str(), format_fixed(s.sd, d).c_str(),
                  format_fixed(s.p50, d).c_str(), format_fixed(s.p95, d).c_str(), format_fixed(s.p99, d).c_str(),
                  format_fixed(s.ci_low, d).c_str(), format_fixed(s.ci_high, d).c_str());
    out << line;
  }
  if (m.contains("optimum"))
    out << optimum_grid_line(optimum_grid_from_json(m["optimum"], "manifest", "optimum")) << "\n";
  out << ledger_block(report);
  return out.str();
}

nlohmann::json report_summary_json(const SimulationReport& report) {
  nlohmann::json summary = nlohmann::json::object();
  const auto metrics = run_metrics();
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (report.summaries[i].n == 0) continue;
    summary[metrics[i].name] = summary_json(report.summaries[i]);
    summary[metrics[i].name]["unit"] = metrics[i].unit;
  }
  return summary;
}

std::string report_json(const SimulationReport& report) {
  std::ostringstream out;
  JsonReportWriter writer(out, "JSON report");
  writer.begin(report.manifest);
  writer.add(report.runs);
  writer.finish(report);
  return out.str();
}

std::string report_csv(const SimulationReport& report) {
  std::ostringstream out;
  CsvRunWriter writer(out, "CSV report");
  writer.begin(report.manifest);
  writer.add(report.runs);
  return out.str();
}

}  // namespace spotsim

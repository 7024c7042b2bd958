#include "app/streaming_report.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <sstream>

#include "app/report_writer.hpp"
#include "app/run_metrics.hpp"
#include "app/simulation_resources.hpp"
#include "base/atomic_output_stream.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"

namespace spotsim {

namespace {

// `text` (a pretty-printed JSON value) with every line after the first indented by `indent` more spaces: the bytes
// nlohmann::json::dump(2) gives for it nested at that depth.
void append_nested(std::string& out, const std::string& text, const std::string& indent) {
  for (const char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
}

// Checked after every block, so that a full disk stops the run at once rather than after all of it.
void write_or_fail(std::ostream& out, std::string& text, const std::string& name) {
  if (text.empty()) return;
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  text.clear();
  if (!out) throw InputError(name + ": write failed (disk full?)");
}

// Rows are written out whenever this much text is pending, so a block's text never needs much memory.
constexpr std::size_t kPendingText = std::size_t{1} << 20;

// The shortest a run's row can be: every number as short as it renders ("0"), less a little for the one metric
// (regret) that renders longer at zero than at its shortest. A true lower bound, so a refusal is never wrong.
std::uint64_t shortest_row_bytes(const std::string& format) {
  RunResult zero;
  zero.optimum_cost = 0.0;
  std::ostringstream text;
  if (format == "csv") {
    CsvRunWriter(text, "estimate").add(std::span<const RunResult>(&zero, 1));
  } else {
    JsonReportWriter(text, "estimate").add(std::span<const RunResult>(&zero, 1));
  }
  return text.str().size() > 8 ? text.str().size() - 8 : 0;
}

}  // namespace

void CsvRunWriter::begin(const nlohmann::json&) {
  text_ = "replication";
  for (const auto& metric : run_metrics()) {
    text_ += ',';
    text_ += metric.name;
  }
  text_ += ",spot_starts,on_demand_starts,trace_start_hours,events,fingerprint\n";
  write_or_fail(out_, text_, name_);
}

void CsvRunWriter::add(std::span<const RunResult> runs) {
  const auto metrics = run_metrics();
  for (const RunResult& r : runs) {
    text_ += std::to_string(r.replication);
    for (const auto& metric : metrics) {
      text_ += ',';
      text_ += format_number(metric.value(r));
    }
    text_ += ',' + std::to_string(r.spot_starts) + ',' + std::to_string(r.on_demand_starts) + ',' +
             format_number(r.trace_start_hours) + ',' + std::to_string(r.events) + ',' + std::to_string(r.fingerprint) +
             '\n';
    if (text_.size() >= kPendingText) write_or_fail(out_, text_, name_);
  }
  write_or_fail(out_, text_, name_);
}

void JsonReportWriter::begin(const nlohmann::json& manifest) {
  text_ = "{\n  \"manifest\": ";
  append_nested(text_, json_text(manifest, 2), "  ");
  text_ += ",\n  \"runs\": [";
  write_or_fail(out_, text_, name_);
}

void JsonReportWriter::add(std::span<const RunResult> runs) {
  const auto metrics = run_metrics();
  for (const RunResult& r : runs) {
    nlohmann::json row = {{"replication", r.replication}};
    for (const auto& metric : metrics) {
      const double v = metric.value(r);
      if (!std::isnan(v)) row[metric.name] = v;
    }
    row["spot_starts"] = r.spot_starts;
    row["on_demand_starts"] = r.on_demand_starts;
    row["trace_start_hours"] = r.trace_start_hours;
    row["events"] = r.events;
    row["fingerprint"] = r.fingerprint;
    text_ += any_run_ ? ",\n    " : "\n    ";
    any_run_ = true;
    append_nested(text_, json_text(row, 2), "    ");
    if (text_.size() >= kPendingText) write_or_fail(out_, text_, name_);
  }
  write_or_fail(out_, text_, name_);
}

void JsonReportWriter::finish(const SimulationReport& report) {
  text_ = any_run_ ? "\n  ],\n  \"summary\": " : "],\n  \"summary\": ";
  append_nested(text_, json_text(report_summary_json(report), 2), "  ");
  if (!report.timeline.empty()) {
    text_ += ",\n  \"timeline\": [";
    std::istringstream lines(report.timeline);
    std::string line;
    for (bool first = true; std::getline(lines, line); first = false) text_ += (first ? "\n    " : ",\n    ") + line;
    text_ += "\n  ]";
  }
  text_ += "\n}\n";
  write_or_fail(out_, text_, name_);
}

void write_simulation(const SimulationRequest& request, const std::string& format, const std::string& output_path,
                      std::ostream& out) {
  std::optional<AtomicOutputStream> file;  // removed unless committed: an error leaves no partial output
  if (!output_path.empty()) {
    file.emplace(output_path);  // a path that cannot be written fails now, not after the run
    const std::filesystem::path parent = std::filesystem::path(output_path).parent_path();
    check_output_fits(output_path, format, request.replications, shortest_row_bytes(format),
                      free_disk_bytes(parent.empty() ? "." : parent.string()));
  }
  std::ostream& sink = file ? file->stream() : out;
  const std::string name = file ? output_path : "stdout";
  if (format == "csv") {
    CsvRunWriter writer(sink, name);
    run_simulation(request, &writer);
  } else if (format == "json") {
    JsonReportWriter writer(sink, name);
    SimulationRequest with_timeline = request;  // the first runs' event log rides along, for `spotsim report`
    with_timeline.with_timeline = true;
    writer.finish(run_simulation(with_timeline, &writer));
  } else {
    std::string table = report_table(run_simulation(request, nullptr));
    write_or_fail(sink, table, name);
  }
  sink.flush();
  if (!sink) throw InputError(name + ": write failed (disk full?)");
  if (file) file->commit();
}

}  // namespace spotsim

#pragma once
// The per-run outputs written as the runs come (docs/outputs.md#formats): the CSV, and the JSON document whose
// "runs" array precedes "summary" (keys are written in sorted order, as nlohmann::json orders them), so the
// summary, known only at the end, is simply written last. report_csv() and report_json() render in-memory reports
// through the same writers, so both paths give the same bytes.
#include <ostream>
#include <span>
#include <string>

#include "app/simulation_request.hpp"

namespace spotsim {

class CsvRunWriter final : public RunConsumer {
 public:
  // `name` (a path, "stdout") names the output in errors.
  CsvRunWriter(std::ostream& out, std::string name) : out_(out), name_(std::move(name)) {}
  void begin(const nlohmann::json& manifest) override;
  void add(std::span<const RunResult> runs) override;

 private:
  std::ostream& out_;
  std::string name_;
  std::string text_;
};

class JsonReportWriter final : public RunConsumer {
 public:
  JsonReportWriter(std::ostream& out, std::string name) : out_(out), name_(std::move(name)) {}
  void begin(const nlohmann::json& manifest) override;
  void add(std::span<const RunResult> runs) override;
  // Closes "runs" and writes "summary", then "timeline" when the report has one (SimulationRequest::with_timeline):
  // an array of its lines' objects, so `spotsim report` can draw the runs from this file alone.
  void finish(const SimulationReport& report);

 private:
  std::ostream& out_;
  std::string name_;
  std::string text_;
  bool any_run_ = false;
};

// Runs `request` and writes its result in `format` (table, json, csv) to `output_path` (atomically; a file that
// could not fit on its disk is refused before the run) or, when it is empty, to `out`.
void write_simulation(const SimulationRequest& request, const std::string& format, const std::string& output_path,
                      std::ostream& out);

}  // namespace spotsim

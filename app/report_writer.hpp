#pragma once
// Renders a SimulationReport: a table for people, JSON (manifest + summary + runs) and a tidy per-run CSV for
// programs. Formats are documented in docs/outputs.md.
#include <string>

#include "app/simulation_request.hpp"

namespace spotsim {

// Whole reports with their runs in memory (the Python module, tests); the CLI streams the same bytes through
// app/streaming_report.hpp. The table needs only the manifest and summaries.
std::string report_table(const SimulationReport& report);
std::string report_json(const SimulationReport& report);
std::string report_csv(const SimulationReport& report);
// The JSON's "summary" object: {metric: {n, mean, ..., unit}} for the metrics the runs have.
nlohmann::json report_summary_json(const SimulationReport& report);
// Shortest round-trip formatting of a double ("%.17g" trimmed), so text outputs are exact and stable.
std::string format_number(double value);
// For people: at most 6 significant digits, trailing zeros dropped ("80.7528", "48", "0.005"); plain digits up to
// 10^9 and beyond (no exponent where a reader expects hours or steps). Tables and headers, never data files.
std::string format_rounded(double value);

}  // namespace spotsim

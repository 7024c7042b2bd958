#pragma once
// Renders a SimulationReport: a table for people, JSON (manifest + summary + runs) and a tidy per-run CSV for
// programs. Formats are documented in docs/outputs.md.
#include <string>

#include "experiments/simulation_request.hpp"

namespace spotsim {

std::string report_table(const SimulationReport& report);
std::string report_json(const SimulationReport& report);
std::string report_csv(const SimulationReport& report);
// Shortest round-trip formatting of a double ("%.17g" trimmed), so text outputs are exact and stable.
std::string format_number(double value);

}  // namespace spotsim

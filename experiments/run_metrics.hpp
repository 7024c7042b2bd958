#pragma once
// The per-run metrics, named once: the summary table, the JSON and the CSV all iterate this list, so a metric
// added here appears everywhere with the same name and unit (documented in docs/outputs.md).
#include <span>

#include "sim/run_result.hpp"

namespace spotsim {

struct MetricDefinition {
  const char* name;
  const char* unit;
  const char* label;  // for the human-readable table
  double (*value)(const RunResult&);
};

std::span<const MetricDefinition> run_metrics();

}  // namespace spotsim

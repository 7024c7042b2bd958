#pragma once
// The per-run metrics, named once: the summary table, the JSON and the CSV all iterate this list, so a metric
// added here appears everywhere with the same name and unit (documented in docs/outputs.md).
#include <cstdint>
#include <span>

#include "model/run_result.hpp"

namespace spotsim {

struct MetricDefinition {
  const char* name;
  const char* unit;
  const char* label;  // for the human-readable table
  double (*value)(const RunResult&);
  // Where the human-readable table shows it. The cost ledger (what cost_total went to) has a block of its own;
  // migration metrics are left out of runs that never migrate, so single-region tables stay as they were.
  // kMultiNode rows appear only for jobs of more than one instance; kLedgerWhenNonZero ledger entries only when
  // some run has them.
  // kIntervalLine metrics are told in one "checkpoint interval:" line above the table instead of a row.
  enum class TableRow : std::uint8_t { kAlways, kWhenNonZero, kLedger, kMultiNode, kLedgerWhenNonZero, kIntervalLine };
  TableRow table_row = TableRow::kAlways;
};

std::span<const MetricDefinition> run_metrics();

}  // namespace spotsim

#pragma once
// What `spotsim report` reads (docs/report.md): a `simulate --format json` output, a `campaign --format json` output,
// or a sweep's output directory (summary.json, manifest.json and, for the distributions, runs.csv). Either becomes the
// same model: one entry per configuration with its means and 95% intervals and, where the input has them, its per-run
// values.
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace spotsim {

// Per configuration, the runs kept for the distributions: the first this many replications (a CDF of 20,000
// points is already exact to the width of a pixel; the input may hold 10^9).
inline constexpr std::size_t kMaxRunsPerConfiguration = 20000;

struct Estimate {
  double mean = NAN, ci_low = NAN, ci_high = NAN;  // the 95% Student-t interval of the mean
  bool present() const { return !std::isnan(mean); }
};

struct ReportConfiguration {
  std::string trace, job, policy, checkpoint;
  Estimate cost, completion, completed, deadline_met, preemptions, checkpoints, regret;
  std::uint64_t replications = 0;
  bool pareto = false;  // on the (mean cost, mean completion) frontier among those of its trace and job
  std::vector<double> run_costs, run_completions;  // per run, replication order (empty when the input has none)
  // Campaigns (docs/campaign.md): a managed service's row, and the mean spot instances held and obtainable in each
  // hour after the start (empty for managed rows and other inputs).
  bool managed = false;
  std::vector<double> held_by_hour, capacity_by_hour;
};

struct ReportInput {
  std::string source;   // the path read
  std::string command;  // "simulate", "sweep" or "campaign"
  nlohmann::json manifest;
  std::vector<ReportConfiguration> configurations;
  // A simulate JSON's own `timeline` (the event log of its first replications, docs/outputs.md#timeline) as the
  // JSON lines of a --timeline file; empty when the result has none.
  std::string embedded_timeline;
};

// Reads `path` (a file: simulate JSON; a directory: a sweep). InputError naming the file and what was expected
// when it is neither.
ReportInput read_report_input(const std::string& path);

// The Pareto flags of `configurations`, computed among those sharing trace and job (simulate outputs have one
// configuration; sweeps carry their own flags but the report recomputes them the same way for both).
void mark_pareto_frontier(std::vector<ReportConfiguration>& configurations);

}  // namespace spotsim

#pragma once
// What `spotsim report` reads (docs/report.md): a `simulate --format json` output, a `campaign --format json` output,
// or a sweep's output directory (summary.json, manifest.json and, for the distributions, runs.csv). Either becomes the
// same model: one entry per configuration with its means and 95% intervals and, where the input has them, its per-run
// values.
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
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

// A campaign job's finish, from one row of a `campaign --format json` output (its "jobs" array).
struct JobFinish {
  std::string name;
  Estimate finish;             // hours after the campaign's start, 95% interval over replications
  double arrival_hours = NAN;  // after the campaign's start, when the output gives it ("arrival_hours")
  double completed_share = NAN;
};

// A campaign's "break_even" object (docs/managed.md#break-even, written with --engineering-cost): against the
// cheapest managed offer, each DIY policy's saving fraction s and the monthly spend E / s above which it pays.
struct CampaignBreakEven {
  double engineering_per_month = NAN;
  std::string managed;
  double managed_cost = NAN;
  struct Policy {
    std::string policy;
    double saving_fraction = NAN;
    std::optional<double> monthly_spend;  // nullopt: DIY never pays off (s <= 0)
  };
  std::vector<Policy> policies;
};

// A campaign row's results for the jobs of one size ("by_job_size", job streams only): turnaround (end - arrival),
// slowdown (turnaround / work), cost per job and the share of deadlines met, each a mean with its 95% interval.
struct JobSizeGroup {
  std::string unit;  // "gpus" or "instances", as the campaign grouped them
  int size = 0;
  int jobs = 0;
  Estimate turnaround_hours, slowdown, cost_per_job, deadline_met;
};

// A campaign's "savings" object (--current-spend with --baseline, docs/campaign.md#savings): each DIY policy's
// saving against what the team pays today.
struct CampaignSavings {
  std::string baseline;
  double baseline_cost = NAN, current_spend_per_month = NAN, engineering_per_month = NAN;
  struct Policy {
    std::string policy;
    double saving_fraction = NAN, net_saving_per_month = NAN, engineering_limit_per_month = NAN;
  };
  std::vector<Policy> policies;
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
  std::vector<JobFinish> jobs;          // campaigns: per job of the campaign, in its order
  std::vector<JobSizeGroup> job_sizes;  // campaigns of a job stream: by job size, smallest first
  double deadline_hours = NAN;          // the job's deadline when the input states one (simulate: manifest.job)
  std::string origin;                   // in a comparison: the input it came from (docs/report.md#comparing-results)
};

// One input of a comparison page: its path, kind and manifest.
struct ComparedInput {
  std::string source, command;
  nlohmann::json manifest;
};

struct ReportInput {
  std::string source;   // the path read
  std::string command;  // "simulate", "sweep", "campaign", or "comparison" (several inputs on one page)
  nlohmann::json manifest;
  std::vector<ReportConfiguration> configurations;
  // A simulate JSON's own `timeline` (the event log of its first replications, docs/outputs.md#timeline) as the
  // JSON lines of a --timeline file; empty when the result has none.
  std::string embedded_timeline;
  std::optional<CampaignBreakEven> break_even;  // campaigns run with --engineering-cost
  std::optional<CampaignSavings> savings;       // campaigns run with --current-spend
  std::vector<ComparedInput> compared;          // a comparison's inputs, one per configuration, in order
};

// Reads `path` (a file: simulate JSON; a directory: a sweep). InputError naming the file and what was expected
// when it is neither.
ReportInput read_report_input(const std::string& path);

// The Pareto flags of `configurations`, computed among those sharing trace and job (simulate outputs have one
// configuration; sweeps carry their own flags but the report recomputes them the same way for both).
void mark_pareto_frontier(std::vector<ReportConfiguration>& configurations);

}  // namespace spotsim

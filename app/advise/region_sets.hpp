#pragma once
// `spotsim advise --region-sets` (docs/advise.md#region-sets): which regions of a multi-region trace should a job
// be allowed to use? Evaluates the job under one selection policy on the trace restricted to candidate region
// sets (every single region, a greedy forward selection from the best one, and all regions) and ranks the sets
// by expected cost among those that meet the deadline often enough. Each set is exactly `spotsim simulate
// --regions SET` with the same seed, so all sets share their random numbers (trace windows, preemption draws).
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/advise/advice_ranking.hpp"
#include "app/simulation_request.hpp"
#include "base/statistics.hpp"

namespace spotsim {

// Per-run costs are kept (8 bytes a run and set) for the paired saving up to this many replications.
inline constexpr std::uint64_t kPairedCostLimit = 100'000;

struct RegionSetRequest {
  // Trace, policy, checkpoint policy, job, seed, replications, threads; its `zones` are set per region set.
  SimulationRequest simulation;
  std::vector<std::string> candidates;  // regions the sets are drawn from; empty = every region of the trace
  RankingCriteria criteria;             // min_deadline_probability when the job has a deadline
};

struct RegionSetRow {
  std::vector<std::string> regions;  // in the trace's order
  std::string origin;                // "single region", "greedy step 2", "all regions", or several joined by ", "
  Summary cost;                      // USD per run: mean with its 95% CI, p95
  Summary hours;                     // completion time
  double deadline_met = 1.0;         // fraction of runs
  double completed = 1.0;
  double mean_migrations = 0.0;
  double mean_preemptions = 0.0;
  double mean_egress_usd = 0.0;
  double egress_share = 0.0;  // mean egress / mean total cost
  RankedEntry ranked;
  // Each run's total cost in replication order, kept for the paired comparison (at most kPairedCostLimit runs).
  std::vector<double> run_costs;

  AdviceMetrics metrics() const;
};

struct RegionSetReport {
  nlohmann::json manifest;         // version, revision, trace, policy, job, seed, replications, criteria
  std::vector<RegionSetRow> rows;  // best first (ranked, then excluded)
  std::vector<std::vector<std::string>> greedy_path;  // the sets greedy selection accepted, in order
  std::size_t sets_evaluated = 0;
  // Best single region's cost minus the recommended set's, run by run (the sets share their random numbers, so
  // run i of both saw the same trace window): whether the saving is more than noise. Empty when the best is a
  // single region, no single region is ranked, or the replications exceed kPairedCostLimit.
  std::optional<Summary> saving_vs_best_single;
  std::string recommendation;  // one line
};

// InputError for a trace with fewer than two regions (v1), an unknown policy or candidate region, a bad job.
RegionSetReport rank_region_sets(const RegionSetRequest& request);

// Greedy forward selection (the search itself, separate so it can be tested on any cost): from `start`, add the
// region of `regions` whose set has the lowest key, while that key is strictly lower than the current set's.
// The key is (excluded by the criteria, mean cost): a set that meets the criteria always beats one that does not.
// Sets are passed to `evaluate` in the order of `regions`; returns the accepted sets in order, `start` first.
using RegionSetEvaluator = std::function<const RegionSetRow&(const std::vector<std::string>&)>;
std::vector<std::vector<std::string>> greedy_region_path(const std::vector<std::string>& regions,
                                                         const std::vector<std::string>& start,
                                                         const RegionSetEvaluator& evaluate,
                                                         const RankingCriteria& criteria);

// "us-central1 + us-east4".
std::string region_set_name(const std::vector<std::string>& regions);

}  // namespace spotsim

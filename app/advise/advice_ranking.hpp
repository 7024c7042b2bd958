#pragma once
// Ranks the (offer, policy) rows of `spotsim advise` (docs/advise.md#ranking). The rank is by expected cost
// among the rows that pass the filters; ties fall to expected completion time, then p95 cost, p95 time, the
// deadline probability, the completed fraction and the expected preemptions, in that order. Because this
// order is lexicographic over every reported metric, a row that is at least as good on all of them and better
// on one (it dominates) always ranks above: no row is ranked below a row it dominates. Pareto-optimal rows on
// (expected cost, expected completion time) are marked.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace spotsim {

struct AdviceMetrics {
  double mean_cost = 0.0;  // USD
  double p95_cost = 0.0;
  double mean_hours = 0.0;  // completion time
  double p95_hours = 0.0;
  double deadline_probability = 1.0;  // fraction of runs that completed by the deadline (completed, without one)
  double completed_fraction = 1.0;
  double mean_preemptions = 0.0;
  // The periodic checkpoint intervals the policy set, mean over every time one was set in the runs; NaN if never
  // (reported, not ranked).
  double checkpoint_interval_spot_hours = NAN;
  double checkpoint_interval_on_demand_hours = NAN;
};

// True when `a` is at least as good as `b` on every metric above and strictly better on at least one.
bool dominates(const AdviceMetrics& a, const AdviceMetrics& b);

struct RankingCriteria {
  std::optional<double> max_hours;                 // p95 completion time at most this
  std::optional<double> budget;                    // p95 cost at most this (USD)
  std::optional<double> min_deadline_probability;  // set when there is a deadline
};

struct RankedEntry {
  int rank = 0;         // 1 = best; 0 = not ranked (excluded)
  bool pareto = false;  // on the (mean cost, mean completion) front of the ranked rows
  std::string excluded_because;
};

// Why `m` fails the criteria ("" if it passes). Runs that did not all complete are never ranked: a run that
// gave up is cheap for the wrong reason.
std::string exclusion_reason(const AdviceMetrics& m, const RankingCriteria& criteria);

// One entry per input row, in input order, and `order`: the row indices best first (ranked rows by rank,
// then the excluded rows in the same order of metrics).
struct Ranking {
  std::vector<RankedEntry> entries;
  std::vector<std::size_t> order;
};

Ranking rank_rows(const std::vector<AdviceMetrics>& rows, const RankingCriteria& criteria);

}  // namespace spotsim

#pragma once
// The samples of one configuration of a sweep, and paired differences between two configurations that share
// their seed (same trace): the building blocks of the summaries, the checkpoint tuning and the regression check.
#include <string>
#include <vector>

#include "app/sweep/sweep_plan.hpp"
#include "base/statistics.hpp"
#include "model/run_result.hpp"

namespace spotsim {

// Index of a metric in run_metrics(); InputError naming `where` if there is none of that name.
std::size_t metric_index(const std::string& name, const std::string& where);
// Whether a larger value is better (completed, deadline_met) rather than worse (costs, times, counts).
bool metric_higher_is_better(const std::string& name);

// The values of metric `metric` of the runs of configuration c, in replication order. `runs` holds every run of
// the plan, in run order.
std::vector<double> metric_values(const SweepPlan& plan, const std::vector<RunResult>& runs, std::size_t configuration,
                                  std::size_t metric);
// Summary of a_r − b_r over the replications r (a and b of equal length, in replication order).
Summary paired_difference(const std::vector<double>& a, const std::vector<double>& b);
// Summary of x_a,r − x_b,r over the replications r (a paired sample: both configurations see the same
// preemptions in replication r).
Summary paired_difference(const SweepPlan& plan, const std::vector<RunResult>& runs, std::size_t a, std::size_t b,
                          std::size_t metric);

}  // namespace spotsim

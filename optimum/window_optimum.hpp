#pragma once
// Regret needs, for every replication, the offline optimum on the very window of the recording it ran on: this
// turns a scenario and a replication's start into the optimum's request (optimum/offline_optimum.hpp).
//
// The optimum is that of the lossless Can't Be Late model with the job's start-up as the changeover. For a job
// with lossless progress it is the exact optimum; for a checkpointed job it is a lower bound (checkpoint writes,
// restores and lost work only add held time), so regret is measured against a bound any policy could at best
// reach. Preemptions that come from a lifetime model on top of the recording are ignored likewise (they only
// make a policy dearer). The optimum decides per tick of the recording and bills per tick in the Can't Be Late
// mode, per second otherwise.
//
// When moving the saved state between regions costs time or egress (Scenario::has_migration_costs), the optimum is
// that of optimum/migration_optimum.hpp instead, with the job's checkpoint transfers and egress per region pair, on its
// automatic grid: exact, or a lower bound with transfer times rounded down (docs/multi-region-optimum.md); either
// way regret is measured against a bound no policy can beat.
#include "model/scenario.hpp"
#include "optimum/migration_optimum.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/window_optimum_grid.hpp"

namespace spotsim {

// InputError unless the scenario has what the optimum needs: a recording with a tick and a deadline.
void require_optimum_inputs(const Scenario& scenario);

// The optimum's request for the window starting at `start`: the scenario's tick, job and billing.
OfflineOptimumRequest window_optimum_request(const Scenario& scenario, Millis start);

// The same with migration: regions, and per region pair the transfer time and egress (Scenario::migration between
// each region's first zone; equal for every zone of a region).
MigrationOptimumRequest migration_window_request(const Scenario& scenario, Millis start);

// The grid every window's optimum of this scenario is solved on, and whether it is exact there or a lower bound
// (multi-region transfer times rounded down to the grid): the same for every window, known without solving.
// Single-region optima are exact on q = gcd(tick, start-up, work, deadline).
WindowOptimumGrid window_optimum_grid(const Scenario& scenario);

// The optimum's cost on the window starting at `start` (absolute trace time, on a tick).
double window_optimum_cost(const Scenario& scenario, Millis start, OfflineOptimumSolver& solver);

}  // namespace spotsim

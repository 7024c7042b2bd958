#include "optimum/window_optimum.hpp"

#include <cmath>
#include <vector>

#include "base/errors.hpp"

namespace spotsim {

namespace {
Millis optimum_tick(const Scenario& scenario) {
  return scenario.cant_be_late_mode() && scenario.cant_be_late_tick() > 0 ? scenario.cant_be_late_tick()
                                                                          : scenario.market().tick;
}
}  // namespace

void require_optimum_inputs(const Scenario& scenario) {
  const SpotMarket& market = scenario.market();
  if (optimum_tick(scenario) <= 0) {
    throw InputError("trace '" + market.name +
                     "': regret needs a recording sampled on a regular clock (the trace's 'tick_s' field)");
  }
  if (scenario.job().deadline == kNever) throw InputError("regret: expected a job with a deadline");
}

OfflineOptimumRequest window_optimum_request(const Scenario& scenario, Millis start) {
  const JobSpec& job = scenario.job();
  OfflineOptimumRequest request;
  request.market = &scenario.market();
  request.start = start;
  request.tick = optimum_tick(scenario);
  request.work = job.work;
  request.changeover = job.startup;
  request.deadline = job.deadline;
  request.nodes = job.nodes;
  request.per_tick_billing = scenario.cant_be_late_mode();
  return request;
}

MigrationOptimumRequest migration_window_request(const Scenario& scenario, Millis start) {
  const OfflineOptimumRequest plain = window_optimum_request(scenario, start);
  MigrationOptimumRequest request;
  request.market = plain.market;
  request.start = plain.start;
  request.tick = plain.tick;
  request.work = plain.work;
  request.changeover = plain.changeover;
  request.deadline = plain.deadline;
  request.nodes = plain.nodes;
  request.per_tick_billing = plain.per_tick_billing;
  const int zones = scenario.zone_count(), regions = scenario.region_count();
  std::vector<int> first_zone(static_cast<std::size_t>(regions), -1);
  for (int z = 0; z < zones; ++z) {
    const int region = scenario.zone_region(z);
    request.zone_region.push_back(region);
    if (first_zone[static_cast<std::size_t>(region)] < 0) first_zone[static_cast<std::size_t>(region)] = z;
  }
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) {
      const MigrationCost& move =
          scenario.migration(first_zone[static_cast<std::size_t>(a)], first_zone[static_cast<std::size_t>(b)]);
      request.transfer.push_back(a == b ? 0 : move.transfer);
      request.egress_usd.push_back(a == b ? 0.0 : move.egress_usd);
    }
  }
  return request;
}

WindowOptimumGrid window_optimum_grid(const Scenario& scenario) {
  if (scenario.has_migration_costs()) {
    const MigrationOptimumGrid grid = migration_optimum_grid(migration_window_request(scenario, 0));
    return {grid.grid, grid.exact};
  }
  const OfflineOptimumRequest request = window_optimum_request(scenario, 0);
  return {progress_grid(request.tick, request.changeover, request.work, request.deadline), true};
}

double window_optimum_cost(const Scenario& scenario, Millis start, OfflineOptimumSolver& solver) {
  WindowCostCache* cache = scenario.optimum_cache();
  if (cache) {
    if (const auto known = cache->find(start)) return *known;
  }
  double cost = NAN;
  if (scenario.has_migration_costs()) {
    // One solver per thread keeps its buffers between windows (the caller's solver is the single-region one).
    thread_local MigrationOptimumSolver migration_solver;
    const MigrationOptimum optimum = migration_solver.solve(migration_window_request(scenario, start));
    if (optimum.feasible) cost = optimum.cost;
  } else {
    const OfflineOptimum optimum = solver.solve(window_optimum_request(scenario, start));
    if (optimum.feasible) cost = optimum.cost;
  }
  if (cache) cache->store(start, cost);
  return cost;
}

}  // namespace spotsim

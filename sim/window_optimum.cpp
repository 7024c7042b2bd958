#include "sim/window_optimum.hpp"

#include "sim/errors.hpp"

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

double window_optimum_cost(const Scenario& scenario, Millis start, OfflineOptimumSolver& solver) {
  WindowCostCache* cache = scenario.optimum_cache();
  if (cache) {
    if (const auto known = cache->find(start)) return *known;
  }
  const OfflineOptimum optimum = solver.solve(window_optimum_request(scenario, start));
  const double cost = optimum.feasible ? optimum.cost : NAN;
  if (cache) cache->store(start, cost);
  return cost;
}

}  // namespace spotsim

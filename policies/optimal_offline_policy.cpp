// `optimal-offline`: the exact offline optimum (optimum/offline_optimum.hpp) played out — the schedule that a policy
// knowing the window's future availability and prices would follow, replayed by the engine. It is the yardstick of
// regret, not a policy one could run: it is the only policy allowed to see the future (prepare_oracle). Its cost in
// `simulate` equals the optimum `--regret` reports for the same window (tests/cantbelate/optimal_offline_test.cpp),
// which checks the dynamic programme and the engine against each other. Across regions (moves that cost transfer
// time or egress) it plays the multi-region optimum (optimum/migration_optimum.hpp), moves included.
#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "model/scenario.hpp"
#include "optimum/migration_optimum.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/window_optimum.hpp"
#include "policies/policy_registry.hpp"
#include "policies/zone_choice.hpp"

namespace spotsim {

namespace {

class OptimalOfflinePolicy final : public SelectionPolicy {
 public:
  void prepare_oracle(const Scenario& scenario, Millis start) override {
    const SpotMarket& market = scenario.market();
    OfflineOptimumRequest request = window_optimum_request(scenario, start);
    tick_ = request.tick;
    if (tick_ <= 0) {
      throw InputError("policy 'optimal-offline': trace '" + market.name +
                       "' has no tick (field 'tick_s'): the optimum decides per tick of a recording");
    }
    if (scenario.job().deadline == kNever) throw InputError("policy 'optimal-offline': expected a job with a deadline");
    start_ = start;
    if (scenario.has_migration_costs()) {  // moving the saved state costs time or egress: the multi-region optimum
      const MigrationOptimum optimum = solve_with_schedule(migration_window_request(scenario, start));
      plan_.feasible = optimum.feasible;
      plan_.schedule = optimum.schedule;
      plan_.schedule_zones = optimum.schedule_zones;
      plan_.schedule_held = optimum.schedule_held;
      return;
    }
    request.want_schedule = true;
    plan_ = solver_.solve(request);
  }

  // The multi-region optimum with its schedule. On the grid --regret uses when that grid is exact and the
  // schedule's back-pointers fit in memory (then the cost played is the optimum's); otherwise on the finest grid
  // that fits (a divisor of gcd(tick, changeover, work, deadline)) with every transfer rounded UP to it: a schedule
  // rounded down could plan a move the real transfer does not finish in time and miss the deadline, one rounded up
  // is always feasible and costs at most the rounding of its moves more than the optimum. Where even the coarsest
  // such grid does not fit (work or deadline in odd seconds: SkyNomad's 43.19 h job), a coarser divisor of
  // gcd(tick, changeover) with the work rounded UP and the deadline DOWN to it as well: a schedule for more work by
  // an earlier deadline is feasible for the real job, which the engine ends as soon as the real work is done.
  MigrationOptimum solve_with_schedule(MigrationOptimumRequest request) {
    request.want_schedule = true;
    const MigrationOptimumGrid automatic = migration_optimum_grid(request);
    const Millis base = progress_grid(request.tick, request.changeover, request.work, request.deadline);
    const std::vector<Millis> transfers = request.transfer;
    const Millis work = request.work, deadline = request.deadline;
    const auto up = [](Millis x, Millis grid) { return (x + grid - 1) / grid * grid; };
    const auto attempt = [&](Millis grid) -> std::optional<MigrationOptimum> {
      request.grid = grid;
      request.work = up(work, grid);
      request.deadline = deadline / grid * grid;
      for (std::size_t i = 0; i < transfers.size(); ++i) request.transfer[i] = up(transfers[i], grid);
      try {
        return migration_solver_.solve(request);
      } catch (const MigrationStateSpaceTooLarge&) {  // a coarser grid may fit; any other error is the request's own
        return std::nullopt;
      }
    };
    // The automatic grid divides base: the coarser grids tried are its multiples that divide base, up to base.
    for (Millis grid = automatic.grid; grid <= base; grid += automatic.grid) {
      if (base % grid != 0) continue;
      if (auto optimum = attempt(grid)) return *optimum;
    }
    // Then base's multiples that divide gcd(tick, changeover), work and deadline rounded (base divides it).
    const Millis rounding_limit = std::gcd(request.tick, request.changeover);
    for (Millis grid = 2 * base; grid <= rounding_limit; grid += base) {
      if (rounding_limit % grid != 0) continue;
      if (up(work, grid) + request.changeover > deadline / grid * grid) break;  // no room left
      if (auto optimum = attempt(grid)) return *optimum;
    }
    throw InputError(
        "policy 'optimal-offline': the multi-region schedule needs more memory than it may keep (1 GiB) "
        "even on the coarsest grid the job allows, gcd(tick, changeover) = " +
        std::to_string(rounding_limit / kMillisPerSecond) +
        " s, with the work rounded up and the deadline down to it; use fewer zones, or a start-up that shares more "
        "with the tick (whole minutes)");
  }

  SelectionDecision decide(const Observation& obs) override {
    if (!plan_.feasible || tick_ <= 0) {  // no schedule meets the deadline: on-demand is the best there is
      return SelectionDecision::on_demand(obs.purchase == Purchase::kOnDemand ? obs.zone
                                                                              : cheapest_on_demand_zone(obs));
    }
    const Millis into = obs.now - start_;
    const auto k = static_cast<std::size_t>(std::max<Millis>(into / tick_, 0));
    // Past the schedule with work left happens only where the engine and the plan disagree (which the tests would
    // show as a cost unequal to the optimum's): finish on on-demand rather than wait for ever.
    if (k >= plan_.schedule.size()) return SelectionDecision::on_demand(cheapest_on_demand_zone(obs));
    const Millis tick_start = start_ + static_cast<Millis>(k) * tick_;
    const Millis next = tick_start + tick_;
    const char held = plan_.schedule[k];
    // A partial stop: hold until the release inside the tick, then nothing until the next boundary.
    const Millis release =
        k < plan_.schedule_held.size() && k + 1 < plan_.schedule.size() ? tick_start + plan_.schedule_held[k] : next;
    if (held == '.' || obs.now >= release) return SelectionDecision::wait(next);
    const int zone = k < plan_.schedule_zones.size() ? std::max(plan_.schedule_zones[k], 0) : 0;
    return held == 's' ? SelectionDecision::spot(zone, release) : SelectionDecision::on_demand(zone, release);
  }

 private:
  OfflineOptimumSolver solver_;
  MigrationOptimumSolver migration_solver_;
  OfflineOptimum plan_;  // the schedule played (of the multi-region optimum when it was solved)
  Millis start_ = 0, tick_ = 0;
};

}  // namespace

void register_optimal_offline(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "optimal-offline",
      "the exact offline optimum played out: what a policy knowing the window's future would hold, tick by tick, "
      "across regions with its moves (the yardstick of --regret; needs a recording with a tick and a deadline; not a "
      "policy one could run)",
      "", [](const PolicyParams&) { return std::make_unique<OptimalOfflinePolicy>(); }});
}

}  // namespace spotsim

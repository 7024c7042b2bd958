// `optimal-offline`: the exact offline optimum (optimum/offline_optimum.hpp) played out — the schedule that a policy
// knowing the window's future availability and prices would follow, replayed by the engine. It is the yardstick of
// regret, not a policy one could run: it is the only policy allowed to see the future (prepare_oracle). Its cost in
// `simulate` equals the optimum `--regret` reports for the same window (tests/cantbelate/optimal_offline_test.cpp),
// which checks the dynamic programme and the engine against each other.
#include <algorithm>
#include <memory>

#include "base/errors.hpp"
#include "model/scenario.hpp"
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
    request.want_schedule = true;
    plan_ = solver_.solve(request);
    start_ = start;
  }

  SelectionDecision decide(const Observation& obs) override {
    if (!plan_.feasible || tick_ <= 0) {  // no schedule meets the deadline: on-demand is the best there is
      return SelectionDecision::on_demand(obs.purchase == Purchase::kOnDemand ? obs.zone
                                                                              : cheapest_on_demand_zone(obs));
    }
    const Millis into = obs.now - start_;
    const auto k = static_cast<std::size_t>(std::max<Millis>(into / tick_, 0));
    if (k >= plan_.schedule.size()) return SelectionDecision::wait();
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
  OfflineOptimum plan_;
  Millis start_ = 0, tick_ = 0;
};

}  // namespace

void register_optimal_offline(PolicyRegistry& registry) {
  registry.add(PolicyEntry<SelectionPolicy>{
      "optimal-offline",
      "the exact offline optimum played out: what a policy knowing the window's future would hold, tick by tick "
      "(the yardstick of --regret; needs a recording with a tick and a deadline; not a policy one could run)",
      "", [](const PolicyParams&) { return std::make_unique<OptimalOfflinePolicy>(); }});
}

}  // namespace spotsim
